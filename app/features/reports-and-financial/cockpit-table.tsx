import { Link } from "@remix-run/react";
import { jobTexts, reportsTexts as t } from "~/messages";
import type { CockpitRow } from "~/models/cockpit.server";
import { formatAmount } from "~/models/reports.fields";
import { DownloadButton } from "./download-button";
import { HeaderRow } from "./fields";
import { TreeToggle, useCollapsedRows, visibleInTree } from "./tree-rows";

/** The fetcher the cockpit's file downloads share (the page shows its failure). */
export const COCKPIT_FILE_FETCHER = "cockpit-file-download";

const pct = (n: number | null) => (n === null ? "–" : `${formatAmount(n)}%`);

/**
 * The cockpit table (/ij/cockpit_preview): the chosen month beside the month before, Dif. $, Dif. %, Comments and
 * Files, categories expandable to their accounts.
 */
export function CockpitTable({
  title,
  months,
  rows,
  unit,
  period,
  detailsLink,
}: {
  title: string;
  months: string[];
  rows: CockpitRow[];
  unit: string;
  period: string;
  detailsLink: (key: string) => string;
}) {
  const collapsed = useCollapsedRows();
  return (
    <div className="tree-table scroll-area" tabIndex={0} role="region" aria-label={title}>
      <table>
        <caption className="visually-hidden">{title}</caption>
        <thead>
          <HeaderRow
            first={title}
            numeric={[months[0], months[1], t.difAmount, t.difPercent]}
            extra={
              <>
                <th scope="col">{t.comments}</th>
                <th scope="col">{t.files}</th>
              </>
            }
          />
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.key}
              className={`tree-row tree-row--${row.kind}`}
              hidden={!visibleInTree(row, rows, collapsed.keys) || undefined}
              data-row-key={row.key}
            >
              <th
                scope="row"
                className={
                  row.kind === "category2" ? "tree-indent-1" : row.kind === "account" ? "tree-indent-2" : undefined
                }
              >
                {row.kind !== "account" ? (
                  <TreeToggle
                    label={row.label}
                    open={!collapsed.keys.has(row.key)}
                    onToggle={() => collapsed.toggle(row.key)}
                  />
                ) : null}
                {row.label}
              </th>
              <td className="report-num">{formatAmount(row.previous)}</td>
              <td className="report-num">{formatAmount(row.current)}</td>
              <td className="report-num">{formatAmount(row.difference)}</td>
              <td className="report-num">{pct(row.differencePercent)}</td>
              <td>
                <span>{row.comment}</span>{" "}
                <Link to={detailsLink(row.key)} preventScrollReset aria-label={t.rowDetailsOf(row.label)}>
                  {t.rowDetails}
                </Link>
              </td>
              <td>
                <RowFiles files={row.files} unit={unit} period={period} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A row's attached files, each a download. */
export function RowFiles({
  files,
  unit,
  period,
}: {
  files: { id: string; name: string }[];
  unit: string;
  period: string;
}) {
  return (
    <div className="report-actions">
      {files.map((f) => (
        <DownloadButton
          key={f.id}
          fetcherKey={COCKPIT_FILE_FETCHER}
          fields={{ unit, period, fileId: f.id }}
          label={jobTexts.downloadOf(f.name)}
          text={f.name}
        />
      ))}
    </div>
  );
}
