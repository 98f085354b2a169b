import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { type ReactNode, useCallback, useMemo } from "react";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { uiTexts } from "~/shared/ui/texts";
import { accessTexts } from "./texts";
import "./access.css";

/**
 * The pieces /user/config and /user/permission share: the page header, the URL plumbing of their dialogs,
 * the dialogs' Cancel/Confirm footer and the server-paged user table.
 */

/** The part of the URL a dialog lives in; closing it drops these parameters and keeps the rest (the page). */
export function useDialogUrls(listPath: string, dialogParams: readonly string[]) {
  const { search } = useLocation();
  const navigate = useNavigate();
  /** `listPath` with the current search, `changes` applied (null removes) and, unless set there, the dialog parameters removed. */
  const hrefWith = useCallback(
    (changes: Record<string, string | null> = {}): string => {
      const params = new URLSearchParams(search);
      for (const key of dialogParams) params.delete(key);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) params.delete(key);
        else params.set(key, value);
      }
      const query = params.toString();
      return query ? `${listPath}?${query}` : listPath;
    },
    [search, listPath, dialogParams],
  );
  // Like hrefWith, changes only with the search (the pages pass constants): the tables built on them follow it.
  /** The current search without the dialog parameters, as [name, value] pairs (hidden inputs of GET forms). */
  const keptParams = useMemo(
    () => [...new URLSearchParams(search).entries()].filter(([key]) => !dialogParams.includes(key)),
    [search, dialogParams],
  );
  const closeHref = hrefWith();
  return {
    hrefWith,
    closeHref,
    close: () => navigate(closeHref, { preventScrollReset: true }),
    keptParams,
  };
}

export function AccessPageHeader({
  titleId,
  title,
  breadcrumb,
  actions,
}: {
  titleId: string;
  title: ReactNode;
  breadcrumb?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <>
      {breadcrumb ? <p className="access-page__breadcrumb">{breadcrumb}</p> : null}
      <div className="access-page__toolbar">
        <h1 id={titleId} className="access-page__title">
          {title}
        </h1>
        {actions}
      </div>
    </>
  );
}

/** Cancelar (a link back to the list, so it works without JavaScript) and the submit button of a dialog's form. */
export function DialogActions({
  cancelHref,
  danger = false,
  busy,
}: {
  cancelHref: string;
  danger?: boolean;
  busy: boolean;
}) {
  return (
    <div className="dialog__footer">
      <Link className="button button--secondary" to={cancelHref} preventScrollReset>
        {uiTexts.cancel}
      </Link>
      <button type="submit" className={danger ? "button button--danger" : "button button--primary"} disabled={busy}>
        {uiTexts.confirm}
      </button>
    </div>
  );
}

/** One page of a user list as a loader sends it (see user-list.server.ts). */
export type UserListData<Row> = {
  rows: Row[];
  total: number;
  rowCount: number;
  page: number;
  pageSize: number;
  pageSizes: number[];
  /** The e-mail search the list is narrowed to ("" for none), and why a search was refused. */
  search: string;
  searchError: string | null;
};

/**
 * The e-mail search of a user list: a GET form, so the search lives in the URL (bookmarks, back and forward) and
 * works without JavaScript. A new search starts at page 1 and keeps the page size.
 */
export function UserSearchForm({
  listPath,
  list,
}: {
  listPath: string;
  list: Pick<UserListData<unknown>, "search" | "searchError" | "pageSize" | "pageSizes" | "total">;
}) {
  const keepSize = list.pageSize !== list.pageSizes[0];
  const clearHref = keepSize ? `${listPath}?pageSize=${list.pageSize}` : listPath;
  return (
    <Form
      method="get"
      action={listPath}
      role="search"
      className="user-search"
      aria-label={accessTexts.userSearchRegion}
    >
      <label htmlFor="user-search">{accessTexts.userSearchLabel}</label>
      <input
        id="user-search"
        type="search"
        name="email"
        defaultValue={list.search}
        key={list.search}
        maxLength={320}
        autoComplete="off"
        aria-invalid={list.searchError ? true : undefined}
        aria-describedby={list.searchError ? "user-search-error" : undefined}
      />
      {keepSize ? <input type="hidden" name="pageSize" value={list.pageSize} /> : null}
      <button type="submit" className="button button--secondary">
        {accessTexts.userSearchButton}
      </button>
      {list.search ? (
        <Link to={clearHref} className="user-search__clear">
          {accessTexts.userSearchClear}
        </Link>
      ) : null}
      {list.searchError ? (
        <p id="user-search-error" className="field__error" role="alert">
          {list.searchError}
        </p>
      ) : list.search ? (
        <p className="user-search__summary" aria-live="polite">
          {accessTexts.userSearchSummary(list.search, list.total)}
        </p>
      ) : null}
    </Form>
  );
}

/** The shared server-paged table with the user lists' settings: rows keyed by record id, 20 or 40 per page. */
export function UserTable<Row extends { id: string }>({
  list,
  columns,
  caption,
  highlightedRowId = null,
}: {
  list: UserListData<Row>;
  columns: ColumnDef<Row, unknown>[];
  caption: string;
  highlightedRowId?: string | null;
}) {
  return (
    <DataTable
      columns={columns}
      rows={list.rows}
      getRowId={(row) => row.id}
      rowCount={list.rowCount}
      page={list.page}
      pageSize={list.pageSize}
      pageSizeOptions={list.pageSizes}
      emptyText={list.search ? accessTexts.userSearchEmpty(list.search) : accessTexts.noUsers}
      caption={caption}
      highlightedRowId={highlightedRowId}
    />
  );
}
