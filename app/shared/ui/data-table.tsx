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

/**
 * What a column's cell renderer gets: TanStack's CellContext, built per cell without TanStack's cell object, whose
 * creation runs every table feature's hook (grouping, pinning, selection…) for each cell, a cost every page render
 * on the server paid. `cell` itself is TanStack's, fetched only if a renderer reads it.
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

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, getRowId, caption, showCaption = false, className } = props;
  const paging = props.paging === false ? null : props;
  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (row, index) => getRowId(row, index),
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    rowCount: paging?.rowCount ?? rows.length,
    state: {
      pagination: paging
        ? { pageIndex: paging.page - 1, pageSize: paging.pageSize }
        : { pageIndex: 0, pageSize: Math.max(1, rows.length) },
    },
  });
  return (
    <div className="data-table">
      <div className="data-table__scroll scroll-area" tabIndex={0} role="region" aria-label={caption}>
        <table className={className}>
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
          <tbody>{bodyRows(table, props)}</tbody>
        </table>
      </div>
      {paging ? <DataTableFooter paging={paging} caption={caption} shown={rows.length} /> : null}
    </div>
  );
}

/** The body's rows, or the one row saying the page is empty; called as a function, like the cells. */
function bodyRows<Row>(table: Table<Row>, props: DataTableProps<Row>): ReactNode {
  const { emptyText, highlightedRowId = null, rowAttributes } = props;
  const leafColumns = table.getVisibleLeafColumns();
  const rows = table.getRowModel().rows;
  if (rows.length === 0) {
    return (
      <tr>
        <td className="data-table__empty" colSpan={leafColumns.length || 1}>
          {emptyText}
        </td>
      </tr>
    );
  }
  return rows.map((row) => {
    const highlighted = row.id === highlightedRowId;
    const { className, ...data } = rowAttributes?.(row.original) ?? {};
    const classes = [className, highlighted ? "data-table__row--highlighted" : undefined].filter(Boolean).join(" ");
    return (
      <tr
        key={row.id}
        data-row-id={row.id}
        className={classes || undefined}
        aria-current={highlighted ? "true" : undefined}
        {...data}
      >
        {leafColumns.map((column) => bodyCell(table, row, column))}
      </tr>
    );
  });
}

function bodyCell<Row>(table: Table<Row>, row: TableRow<Row>, column: Column<Row, unknown>): ReactNode {
  const meta = column.columnDef.meta as DataTableColumnMeta<Row> | undefined;
  const className = typeof meta?.cellClassName === "function" ? meta.cellClassName(row.original) : meta?.cellClassName;
  const content = renderCell(column.columnDef.cell, cellContext(table, row, column));
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
