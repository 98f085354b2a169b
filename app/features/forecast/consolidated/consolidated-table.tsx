import { Link } from "@remix-run/react";
import { formatPercent, formatPtBr2 } from "~/shared/numbers";
import { shownLabel } from "../cycle/texts";
import { reviewPath } from "../forecast-filter";
import type { ValueColumn } from "./columns";
import { type ConsolidatedQuery, consolidatedHref, isOpen, toggled } from "./query";
import { consolidatedTexts as t } from "./texts";
import type { TreeRow } from "./tree";

/**
 * The consolidated tree as a table: each level a row with its sums; a row opens and closes by a link whose address
 * holds the new state (works without JavaScript; Back returns to the previous state). The first column stays in
 * place while the months scroll sideways (a phone shows the tree and the year's total side by side).
 */

const formatValue = (column: ValueColumn, value: number | null) =>
  value === null
    ? column.id.startsWith("m_") || column.id === "total"
      ? ""
      : t.dash
    : column.kind === "percent"
      ? formatPercent(value)
      : formatPtBr2(value);

function RowLabel({ row, query, rf }: { row: TreeRow; query: ConsolidatedQuery; rf: string }) {
  const open = isOpen(query, row.key, row.depth);
  const toggle =
    row.hasChildren && row.depth >= 0 ? (
      <Link
        className="consolidated__toggle"
        to={consolidatedHref(toggled(query, row.key, row.depth))}
        preventScrollReset
        aria-label={open ? t.close(row.label) : t.open(row.label)}
        aria-expanded={open}
      >
        {open ? "▾" : "▸"}
      </Link>
    ) : (
      <span className="consolidated__toggle" aria-hidden="true" />
    );
  return (
    <th scope="row" className={`consolidated__label consolidated__label--d${row.depth + 1}`}>
      {toggle}
      {row.kind === "costCentre" && row.costCentre ? (
        <>
          <Link to={reviewPath(rf, row.costCentre)} title={t.reviewOf(row.costCentre)}>
            {row.label}
          </Link>
          {row.state ? (
            <span className={`forecast-cycle__state forecast-cycle__state--${row.state} consolidated__state`}>
              {shownLabel(row.state)}
            </span>
          ) : null}
        </>
      ) : (
        <span>{row.label}</span>
      )}
    </th>
  );
}

export function ConsolidatedTable({
  rows,
  columns,
  query,
  rf,
  caption,
}: {
  rows: readonly TreeRow[];
  columns: readonly ValueColumn[];
  query: ConsolidatedQuery;
  rf: string;
  caption: string;
}) {
  return (
    <div className="consolidated__scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="consolidated__table consolidated__tree">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="consolidated__label">
              {t.rowLabel}
            </th>
            {columns.map((c) => (
              <th key={c.id} scope="col" data-column={c.id} className="consolidated__num">
                {c.header}
                {c.tag ? <span className={`consolidated__tag consolidated__tag--${c.tag}`}>{c.tag}</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className={`consolidated__row consolidated__row--${row.kind}`} data-row={row.key}>
              <RowLabel row={row} query={query} rf={rf} />
              {columns.map((c) => (
                <td key={c.id} className="consolidated__num">
                  {formatValue(c, c.value(row))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
