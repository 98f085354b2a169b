import { Form, Link, useLocation, useSubmit } from "@remix-run/react";
import {
  type CellContext,
  type Column,
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type Table,
  type Row as TableRow,
  useReactTable,
} from "@tanstack/react-table";
import { type ReactNode, useId } from "react";
import { uiTexts } from "./texts";
import "./data-table.css";
import { useHydrated } from "./use-hydrated";

/**
 * THE shared server-paged table (TanStack Table, headless). The server sends one page and the total;
 * the page and the page size live in the URL, so the browser's back/forward and bookmarks work, and
 * paging is plain links (and a GET form for the page size) that work before the JavaScript loads.
 */

export type DataTableProps<Row> = {
  columns: ColumnDef<Row, unknown>[];
  rows: Row[];
  /** The record id: keeps row identity stable across pages and reloads. */
  getRowId: (row: Row) => string;
  /** The total number of rows on the server. */
  rowCount: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  /** When given, an "Items per page" choice is shown. */
  pageSizeOptions?: readonly number[];
  /** Shown in place of rows when the page is empty. */
  emptyText: string;
  /** Names the table for assistive technology (visually hidden unless `showCaption`). */
  caption: string;
  showCaption?: boolean;
  pageParam?: string;
  pageSizeParam?: string;
  /** How the URL counts pages: from 1 (default), or a page index from 0 (the report preview, spec 001 §4). */
  pageParamBase?: 0 | 1;
  /** The id of a row to set apart (e.g. a record just created); the row gets `aria-current` and a highlight. */
  highlightedRowId?: string | null;
};

/** Columns that show one text field of a row object each. */
export function textColumns<Row extends { cells: Record<string, string> }>(
  defs: readonly { key: string; header: string }[],
): ColumnDef<Row, string>[] {
  return defs.map((def) => ({
    id: def.key,
    header: def.header,
    accessorFn: (row: Row) => row.cells[def.key] ?? "",
  }));
}

/**
 * What a column's cell renderer gets: TanStack's CellContext, built per cell without TanStack's cell object, whose
 * creation runs every table feature's hook (grouping, pinning, selection…) for each cell, ~1 ms of a 40-row page on
 * the server. `cell` itself is TanStack's, fetched only if a renderer reads it.
 */
function cellContext<Row>(
  table: Table<Row>,
  row: TableRow<Row>,
  column: Column<Row, unknown>,
): CellContext<Row, unknown> {
  const getValue: CellContext<Row, unknown>["getValue"] = () => row.getValue(column.id);
  return {
    table,
    row,
    column,
    getValue,
    renderValue: () => getValue() ?? table.options.renderFallbackValue,
    get cell() {
      return row.getAllCells().find((c) => c.column.id === column.id)!;
    },
  };
}

/**
 * A cell's content: the column's renderer called as a function, not mounted as a component as TanStack's flexRender
 * does (a component per cell, 320 on a 40-row page, and a props copy that would read every field of the context). So a
 * cell renderer calls no hooks: what needs state is a component that the renderer returns (RetryButton, DownloadButton).
 */
function renderCell<Row>(cell: ColumnDef<Row, unknown>["cell"], context: CellContext<Row, unknown>): ReactNode {
  return typeof cell === "function" ? cell(context) : cell;
}

/** The current search string with `changes` applied (null removes a parameter). */
export function searchWith(search: string, changes: Record<string, string | number | null>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "?";
}

export function DataTable<Row>({
  columns,
  rows,
  getRowId,
  rowCount,
  page,
  pageSize,
  pageSizeOptions,
  emptyText,
  caption,
  showCaption = false,
  pageParam = "page",
  pageSizeParam = "pageSize",
  pageParamBase = 1,
  highlightedRowId = null,
}: DataTableProps<Row>) {
  const location = useLocation();
  const submit = useSubmit();
  const sizeSelectId = useId();
  const hydrated = useHydrated();

  const pageCount = Math.max(1, Math.ceil(rowCount / pageSize));
  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    rowCount,
    state: { pagination: { pageIndex: page - 1, pageSize } },
  });

  const from = rows.length === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = rows.length === 0 ? 0 : from + rows.length - 1;
  const hasPrevious = page > 1;
  const hasNext = page < pageCount;
  const leafColumns = table.getVisibleLeafColumns();
  const leafCount = leafColumns.length || 1;

  // Everything else in the URL (tab, collection, filters) is kept by the page-size form.
  const keptParams = [...new URLSearchParams(location.search).entries()].filter(
    ([k]) => k !== pageParam && k !== pageSizeParam,
  );

  return (
    <div className="data-table">
      <div className="data-table__scroll scroll-area" tabIndex={0} role="region" aria-label={caption}>
        <table>
          <caption className={showCaption ? undefined : "visually-hidden"}>{caption}</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} scope="col" colSpan={header.colSpan}>
                    {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.length === 0 ? (
              <tr>
                <td className="data-table__empty" colSpan={leafCount}>
                  {emptyText}
                </td>
              </tr>
            ) : (
              table.getRowModel().rows.map((row) => (
                <tr
                  key={row.id}
                  data-row-id={row.id}
                  className={row.id === highlightedRowId ? "data-table__row--highlighted" : undefined}
                  aria-current={row.id === highlightedRowId ? "true" : undefined}
                >
                  {leafColumns.map((column) => (
                    <td key={column.id}>{renderCell(column.columnDef.cell, cellContext(table, row, column))}</td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="data-table__footer">
        <p className="data-table__range" aria-live="polite">
          {from}–{to} / {rowCount}
        </p>
        {pageSizeOptions && pageSizeOptions.length > 0 ? (
          <Form
            method="get"
            className="data-table__size"
            preventScrollReset
            onChange={(event) => submit(event.currentTarget, { preventScrollReset: true })}
          >
            {keptParams.map(([key, value], i) => (
              <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
            ))}
            <label htmlFor={sizeSelectId}>{uiTexts.itemsPerPage}</label>
            <select id={sizeSelectId} name={pageSizeParam} defaultValue={String(pageSize)} key={pageSize}>
              {pageSizeOptions.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            {hydrated ? null : (
              <button type="submit" className="button button--secondary">
                OK
              </button>
            )}
          </Form>
        ) : null}
        <nav className="data-table__pager" aria-label={`${caption}: ${uiTexts.previous} / ${uiTexts.next}`}>
          {hasPrevious ? (
            <Link
              className="button button--secondary"
              rel="prev"
              preventScrollReset
              to={searchWith(location.search, { [pageParam]: page - 2 + pageParamBase })}
            >
              {uiTexts.previous}
            </Link>
          ) : (
            <span className="button button--secondary" aria-disabled="true">
              {uiTexts.previous}
            </span>
          )}
          <span aria-current="page">
            {page} / {pageCount}
          </span>
          {hasNext ? (
            <Link
              className="button button--secondary"
              rel="next"
              preventScrollReset
              to={searchWith(location.search, { [pageParam]: page + pageParamBase })}
            >
              {uiTexts.next}
            </Link>
          ) : (
            <span className="button button--secondary" aria-disabled="true">
              {uiTexts.next}
            </span>
          )}
        </nav>
      </div>
    </div>
  );
}
