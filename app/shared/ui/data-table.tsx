import { Form, Link, useLocation, useSubmit } from "@remix-run/react";
import { type ReactNode, useId } from "react";
import { uiTexts } from "./texts";
import "./data-table.css";
import { useHydrated } from "./use-hydrated";

/**
 * THE shared server-paged table. The server sends one page and the total; the page and the page size live in the
 * URL, so the browser's back/forward and bookmarks work, and paging is plain links (and a GET form for the page size)
 * that work before the JavaScript loads. Its column model is the few fields of TanStack Table's that a flat,
 * unsorted page needs (id, header, accessorKey/accessorFn, cell, meta), read here directly: the library's row model
 * (13 kB gzip in every table page's script) is left to the grid that pins columns (the forecast grid).
 */

/** Page and total of a server-paged table. */
type PagingProps = {
  paging?: true;
  /** The total number of rows on the server. */
  rowCount: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  /** When given, an "Items per page" choice is shown. */
  pageSizeOptions?: readonly number[];
  pageParam?: string;
  pageSizeParam?: string;
  /** How the URL counts pages: from 1 (default), or a page index from 0 (the report preview, spec 001 §4). */
  pageParamBase?: 0 | 1;
};

/** A list shown whole (kept in the browser, or paged by the screen's own links): no range and no pager. */
type WholeListProps = { paging: false };

/** What a row's `<tr>` carries besides its id: a class, and data attributes the screen's tests and styles read. */
export type DataTableRowAttributes = { className?: string } & { [key: `data-${string}`]: string | undefined };

/**
 * What DataTable reads from a column's `meta`: whether its cell is the row's header (`<th scope="row">`), and the
 * cell's class, fixed or from the row.
 */
export type DataTableColumnMeta<Row> = {
  rowHeader?: boolean;
  cellClassName?: string | ((row: Row) => string | undefined);
};

/** What a column's cell renderer gets: the row (its record, id and index on the page) and the column's value. */
export type CellContext<Row, Value = unknown> = {
  row: { original: Row; id: string; index: number };
  getValue: () => Value;
};

/**
 * One column: its header, its value (a field of the row, or computed from it) and how a cell shows it (by default,
 * the value as text). A renderer is called as a function, not mounted as a component: it calls no hooks; what needs
 * state is a component that it returns (RetryButton, DownloadButton).
 */
export type ColumnDef<Row, Value = unknown> = {
  id: string;
  header: ReactNode | (() => ReactNode);
  accessorKey?: keyof Row & string;
  accessorFn?: (row: Row) => Value;
  // A method, so that a column of a narrower value type is still a column of the table's rows.
  cell?(context: CellContext<Row, Value>): ReactNode;
  meta?: DataTableColumnMeta<Row>;
};

export type DataTableProps<Row> = {
  columns: ColumnDef<Row, unknown>[];
  rows: Row[];
  /** The record id: keeps row identity stable across pages and reloads (`index`: the row's place on the page). */
  getRowId: (row: Row, index: number) => string;
  /** Shown in place of rows when the page is empty. */
  emptyText: string;
  /** Names the table for assistive technology (visually hidden unless `showCaption`). */
  caption: string;
  showCaption?: boolean;
  /** The id of a row to set apart (e.g. a record just created); the row gets `aria-current` and a highlight. */
  highlightedRowId?: string | null;
  /** The `<table>`'s own class, for a screen's styles. */
  className?: string;
  rowAttributes?: (row: Row) => DataTableRowAttributes;
} & (PagingProps | WholeListProps);

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

function columnValue<Row>(column: ColumnDef<Row, unknown>, row: Row): unknown {
  if (column.accessorFn) return column.accessorFn(row);
  return column.accessorKey === undefined ? undefined : row[column.accessorKey];
}

/** A cell's content: the column's renderer, or its value as text (nothing for null and undefined). */
function renderCell<Row>(column: ColumnDef<Row, unknown>, row: Row, id: string, index: number): ReactNode {
  const getValue = () => columnValue(column, row);
  if (column.cell) return column.cell({ row: { original: row, id, index }, getValue });
  const value = getValue();
  return value === null || value === undefined ? null : String(value);
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

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, caption, showCaption = false, className } = props;
  const paging = props.paging === false ? null : props;
  return (
    <div className="data-table">
      <div className="data-table__scroll scroll-area" tabIndex={0} role="region" aria-label={caption}>
        <table className={className}>
          <caption className={showCaption ? undefined : "visually-hidden"}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.id} scope="col">
                  {typeof column.header === "function" ? column.header() : column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{bodyRows(props)}</tbody>
        </table>
      </div>
      {paging ? <DataTableFooter paging={paging} caption={caption} shown={rows.length} /> : null}
    </div>
  );
}

/** The body's rows, or the one row saying the page is empty; called as a function, like the cells. */
function bodyRows<Row>(props: DataTableProps<Row>): ReactNode {
  const { columns, rows, getRowId, emptyText, highlightedRowId = null, rowAttributes } = props;
  if (rows.length === 0) {
    return (
      <tr>
        <td className="data-table__empty" colSpan={columns.length || 1}>
          {emptyText}
        </td>
      </tr>
    );
  }
  return rows.map((row, index) => {
    const id = getRowId(row, index);
    const highlighted = id === highlightedRowId;
    const { className, ...data } = rowAttributes?.(row) ?? {};
    const classes = [className, highlighted ? "data-table__row--highlighted" : undefined].filter(Boolean).join(" ");
    return (
      <tr
        key={id}
        data-row-id={id}
        className={classes || undefined}
        aria-current={highlighted ? "true" : undefined}
        {...data}
      >
        {columns.map((column) => bodyCell(column, row, id, index))}
      </tr>
    );
  });
}

function bodyCell<Row>(column: ColumnDef<Row, unknown>, row: Row, id: string, index: number): ReactNode {
  const meta = column.meta;
  const className = typeof meta?.cellClassName === "function" ? meta.cellClassName(row) : meta?.cellClassName;
  const content = renderCell(column, row, id, index);
  return meta?.rowHeader ? (
    <th key={column.id} scope="row" className={className}>
      {content}
    </th>
  ) : (
    <td key={column.id} className={className}>
      {content}
    </td>
  );
}

/** The range shown, the page-size choice and the previous/next links, all kept in the URL. */
function DataTableFooter({ paging, caption, shown }: { paging: PagingProps; caption: string; shown: number }) {
  const { rowCount, page, pageSize, pageSizeOptions } = paging;
  const { pageParam = "page", pageSizeParam = "pageSize", pageParamBase = 1 } = paging;
  const location = useLocation();
  const pageCount = Math.max(1, Math.ceil(rowCount / pageSize));
  const from = shown === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = shown === 0 ? 0 : from + shown - 1;
  const pageLink = (target: number, rel: "prev" | "next", label: string, enabled: boolean) =>
    enabled ? (
      <Link
        className="button button--secondary"
        rel={rel}
        preventScrollReset
        to={searchWith(location.search, { [pageParam]: target - 1 + pageParamBase })}
      >
        {label}
      </Link>
    ) : (
      <span className="button button--secondary" aria-disabled="true">
        {label}
      </span>
    );
  return (
    <div className="data-table__footer">
      <p className="data-table__range" aria-live="polite">
        {from}–{to} / {rowCount}
      </p>
      {pageSizeOptions && pageSizeOptions.length > 0 ? (
        <PageSizeForm options={pageSizeOptions} pageSize={pageSize} pageParam={pageParam} sizeParam={pageSizeParam} />
      ) : null}
      <nav className="data-table__pager" aria-label={`${caption}: ${uiTexts.previous} / ${uiTexts.next}`}>
        {pageLink(page - 1, "prev", uiTexts.previous, page > 1)}
        <span aria-current="page">
          {page} / {pageCount}
        </span>
        {pageLink(page + 1, "next", uiTexts.next, page < pageCount)}
      </nav>
    </div>
  );
}

/** "Items per page": a GET form that keeps everything else in the URL (tab, collection, filters) but the page. */
function PageSizeForm({
  options,
  pageSize,
  pageParam,
  sizeParam,
}: {
  options: readonly number[];
  pageSize: number;
  pageParam: string;
  sizeParam: string;
}) {
  const location = useLocation();
  const submit = useSubmit();
  const sizeSelectId = useId();
  const hydrated = useHydrated();
  const keptParams = [...new URLSearchParams(location.search).entries()].filter(
    ([k]) => k !== pageParam && k !== sizeParam,
  );
  return (
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
      <select id={sizeSelectId} name={sizeParam} defaultValue={String(pageSize)} key={pageSize}>
        {options.map((n) => (
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
  );
}
