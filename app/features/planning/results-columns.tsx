import { Link } from "@remix-run/react";
import { ThreadLink } from "~/platform/comments/thread-link";
import type { ColumnDef } from "~/shared/ui/data-table";
import { uiTexts } from "~/shared/ui/texts";
import { QUANTITY_MAX } from "./planning-values";
import type { ResultRow, ResultsView } from "./results.server";
import { planningSpreadPath, planningThreadPath } from "./row-paths";
import { planningTexts } from "./texts";
import type { Edits } from "./use-edits";

const pt = (n: number) => n.toLocaleString("pt-BR");

const text = (id: string, header: string, get: (r: ResultRow) => string): ColumnDef<ResultRow, unknown> => ({
  id,
  header,
  cell: ({ row }) => get(row.original),
});

/** The batch preview's quantity: read-only, the value multiplied by the factor. */
function previewQuantity(row: ResultRow, label: string) {
  return (
    <input
      key="quantity"
      className="planning-quantity"
      type="number"
      readOnly
      value={row.preview ?? row.valor}
      aria-label={label}
      title={`${pt(row.valor)} → ${pt(row.preview ?? row.valor)}`}
    />
  );
}

/**
 * An editable quantity with the hidden fields its save needs (id, revision, the value loaded) and its message. Called
 * as a function by the cell (a cell renderer mounts no component of its own; see DataTable).
 */
function quantityInputs(row: ResultRow, index: number, label: string, edits: Edits, error: string | undefined) {
  const errorId = `quantity-error-${row.id}`;
  return (
    <>
      <input key="id" type="hidden" name={`rows[${index}].id`} value={row.id} />
      <input key="revision" type="hidden" name={`rows[${index}].revision`} value={row.revision} />
      <input key="loaded" type="hidden" name={`rows[${index}].loaded`} value={row.valor} />
      <input
        key="quantity"
        className="planning-quantity"
        type="number"
        inputMode="numeric"
        name={`rows[${index}].valor`}
        min={0}
        max={QUANTITY_MAX}
        step={1}
        required
        value={edits.valueOf(row)}
        onChange={(e) => edits.set(row, e.target.value)}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <span key="error" id={errorId} className="field__error">
          {error}
        </span>
      ) : null}
    </>
  );
}

function quantityColumn(
  data: ResultsView,
  edits: Edits,
  rowErrors: Record<string, string>,
): ColumnDef<ResultRow, unknown> {
  return {
    id: "quantity",
    header: planningTexts.columns.quantity,
    cell: ({ row }) => {
      const r = row.original;
      const label = planningTexts.quantityOf(r.sku, r.channel, r.month);
      if (!data.canWrite) return <span className="planning-quantity">{pt(r.valor)}</span>;
      // Batch mode: the inputs are read-only and show the values multiplied by the factor. Every input of the cell has
      // a key: without them React turned the preview's number input into the hidden id input of the normal grid and
      // back (Back/Forward between the two), writing a record id into a number input on the way.
      if (data.batch) return previewQuantity(r, label);
      const error = edits.invalid.has(r.id) ? uiTexts.numberNotValid : rowErrors[r.id];
      return quantityInputs(r, row.index, label, edits, error);
    },
  };
}

/**
 * The results table's columns. The cells read the edits and the URL, so they are rebuilt on every render (20 rows);
 * `historyHref` gives the address of a row's history dialog.
 */
export function resultColumns(
  data: ResultsView,
  edits: Edits,
  rowErrors: Record<string, string>,
  historyHref: (row: ResultRow) => string,
): ColumnDef<ResultRow, unknown>[] {
  const threads = data.threads;
  return [
    text("date", planningTexts.columns.date, (r) => r.date),
    text("month", planningTexts.columnMonth, (r) => r.month),
    text("sku", planningTexts.columns.sku, (r) => r.sku),
    text("description", planningTexts.columns.description, (r) => r.description),
    quantityColumn(data, edits, rowErrors),
    text("brand", planningTexts.columns.brand, (r) => r.brand),
    text("channel", planningTexts.columns.channel, (r) => r.channel),
    text("hero", planningTexts.columns.hero, (r) => r.hero),
    text("abcd", planningTexts.columns.abcd, (r) => r.abcd),
    text("plcLocal", planningTexts.columns.plcLocal, (r) => r.plcLocal),
    text("category", planningTexts.columns.category, (r) => r.category),
    text("majorCategory", planningTexts.columns.majorCategory, (r) => r.majorCategory),
    {
      id: "history",
      header: planningTexts.historyColumn,
      cell: ({ row }) => (
        <Link
          className="button button--secondary button--small"
          to={historyHref(row.original)}
          preventScrollReset
          aria-label={planningTexts.historyOf(row.original.label)}
        >
          {planningTexts.historyColumn}
        </Link>
      ),
    },
    // The plan grid's editors spread a SKU's total over the filter's months from any of its rows.
    ...(threads && data.canWrite
      ? [
          {
            id: "spread",
            header: planningTexts.spreadColumn,
            cell: ({ row }: { row: { original: ResultRow } }) => (
              <Link
                className="button button--secondary button--small"
                to={planningSpreadPath(row.original.id, data.filterQuery)}
                aria-label={planningTexts.spreadOf(row.original.label)}
              >
                {planningTexts.spreadColumn}
              </Link>
            ),
          } satisfies ColumnDef<ResultRow, unknown>,
        ]
      : []),
    // The plan grid's rows carry comment threads (the report preview's do not).
    ...(threads
      ? [
          {
            id: "thread",
            header: planningTexts.threadColumn,
            cell: ({ row }: { row: { original: ResultRow } }) => {
              const state = threads[row.original.id];
              return (
                <ThreadLink
                  id={`p-${row.original.id}`}
                  to={planningThreadPath(row.original.id)}
                  state={state}
                  label={planningTexts.threadOf(row.original.label, state?.comments ?? 0)}
                />
              );
            },
          } satisfies ColumnDef<ResultRow, unknown>,
        ]
      : []),
  ];
}
