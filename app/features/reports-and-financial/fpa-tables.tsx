import { Form, Link } from "@remix-run/react";
import { reportsTexts as t } from "~/messages";
import { formatAmount } from "~/models/reports.fields";
import { HeaderRow } from "./fields";
import type { FpaPageData } from "./fpa-report.server";
import { TreeToggle, useCollapsedRows, visibleInTree } from "./tree-rows";

/** The FP&A report's parts (/ij/report_save): its header and the tables of its two tabs. */

/** The report's header: period, country, functional area, responsible person, user and cost centre. */
export function ReportHeader({ header }: { header: NonNullable<FpaPageData["header"]> }) {
  const items: [string, string][] = [
    [t.period, header.period],
    [t.country, header.country],
    [t.functionalArea, header.functionalArea],
    [t.personResponsible, header.personResponsible],
    [t.userResponsible, header.userResponsible],
    [t.costCenter, header.costCenter],
  ];
  return (
    <dl className="report-header">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

type TreeRow = { id: string; parentId: string | null; type: "step" | "row"; acc_description: string };

function indent(row: TreeRow, rows: readonly TreeRow[]): string | undefined {
  const parent = rows.find((r) => r.id === row.parentId);
  if (!parent) return undefined;
  return parent.parentId ? "tree-indent-2" : "tree-indent-1";
}

function useTree<Row extends TreeRow>(rows: readonly Row[]) {
  const collapsed = useCollapsedRows();
  const items = rows.map((r) => ({ key: r.id, parentKey: r.parentId }));
  const hasChildren = new Set(rows.map((r) => r.parentId));
  const labelCell = (row: Row) => (
    <th scope="row" className={indent(row, rows)}>
      {hasChildren.has(row.id) ? (
        <TreeToggle
          label={row.acc_description}
          open={!collapsed.keys.has(row.id)}
          onToggle={() => collapsed.toggle(row.id)}
        />
      ) : null}
      {row.acc_description}
    </th>
  );
  const hidden = (row: Row) =>
    !visibleInTree({ key: row.id, parentKey: row.parentId }, items, collapsed.keys) || undefined;
  return { labelCell, hidden };
}

/** Tab Current: the tree of rows, the forecast (rf_n) editable row by row for the finance planners. */
export function CurrentTable({
  rows,
  params,
  canEdit,
  editLink,
  undoLink,
}: {
  rows: NonNullable<FpaPageData["report"]>["current"];
  params: FpaPageData["params"];
  canEdit: boolean;
  editLink: (id: string) => string;
  undoLink: string;
}) {
  const { labelCell, hidden } = useTree(rows);
  return (
    <div className="tree-table tree-table--600">
      <table>
        <caption className="visually-hidden">{t.tabCurrent}</caption>
        <thead>
          <HeaderRow
            first="acc_description"
            numeric={["priorY", "priorM", "actual", "rf_n"]}
            extra={canEdit ? <th scope="col">{t.columnActions}</th> : null}
          />
        </thead>
        <tbody>
          {rows.map((row) => {
            const editing = canEdit && row.type === "row" && params.edit === row.id;
            return (
              <tr
                key={row.id}
                className={`tree-row tree-row--${row.type}${editing ? " tree-row--edited" : ""}`}
                hidden={hidden(row)}
                data-row-key={row.id}
              >
                {labelCell(row)}
                <td className="report-num">{formatAmount(row.priorY)}</td>
                <td className="report-num">{formatAmount(row.priorM)}</td>
                <td className="report-num">{formatAmount(row.actual)}</td>
                <td className="report-num">
                  {editing ? (
                    <Form method="post" id={`fpa-edit-${row.id}`} preventScrollReset className="report-inline-form">
                      <input type="hidden" name="intent" value="save" />
                      <input type="hidden" name="company" value={params.company ?? ""} />
                      <input type="hidden" name="period" value={params.period ?? ""} />
                      <input type="hidden" name="account" value={row.id} />
                      <input
                        className="tree-input"
                        name="rf_n"
                        aria-label={`rf_n ${row.acc_description}`}
                        defaultValue={formatAmount(row.rf_n)}
                        inputMode="decimal"
                        // biome-ignore lint/a11y/noAutofocus: the row's edit link opens this field to type in
                        autoFocus
                      />
                    </Form>
                  ) : (
                    formatAmount(row.rf_n)
                  )}
                </td>
                {canEdit ? (
                  <td>
                    {row.type !== "row" ? null : editing ? (
                      <div className="report-actions">
                        <button
                          type="submit"
                          form={`fpa-edit-${row.id}`}
                          className="button button--primary button--small"
                        >
                          {t.fpaSave}
                        </button>
                        <Link
                          to={undoLink}
                          preventScrollReset
                          replace
                          className="button button--secondary button--small"
                        >
                          {t.fpaUndo}
                        </Link>
                      </div>
                    ) : (
                      <Link
                        to={editLink(row.id)}
                        preventScrollReset
                        className="button button--secondary button--small"
                        aria-label={t.fpaEditOf(row.acc_description)}
                      >
                        {t.fpaEdit}
                      </Link>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Tab Variances: the tree of rows with the variances, read-only. */
export function VarianceTable({ rows }: { rows: NonNullable<FpaPageData["report"]>["variances"] }) {
  const { labelCell, hidden } = useTree(rows);
  return (
    <div className="tree-table tree-table--600">
      <table>
        <caption className="visually-hidden">{t.tabVariances}</caption>
        <thead>
          <HeaderRow first="acc_description" numeric={["priorY", "rfY", "priorM", "rfM", "actualRF"]} />
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className={`tree-row tree-row--${row.type}`} hidden={hidden(row)} data-row-key={row.id}>
              {labelCell(row)}
              <td className="report-num">{formatAmount(row.priorY)}</td>
              <td className="report-num">{formatAmount(row.rfY)}</td>
              <td className="report-num">{formatAmount(row.priorM)}</td>
              <td className="report-num">{formatAmount(row.rfM)}</td>
              <td className="report-num">{row.actualRF === null ? "–" : `${formatAmount(row.actualRF)}%`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
