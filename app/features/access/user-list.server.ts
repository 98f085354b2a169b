import { z } from "zod";
import type { UserListPage } from "~/features/access/accounts.server";
import { messages } from "~/messages";
import { findPermissionRecord, USER_PAGE_SIZES } from "~/models/user-permissions.server";
import type { PermissionType } from "~/models/users.server";
import { parsePaging } from "~/shared/pagination";

import { EMAIL_SEARCH_PARAM, NEW_USER_PARAM } from "./user-list-params";

/**
 * Server half of the two user-administration lists (/user/config, /user/permission): the paging
 * parameters of the URL, the answer a list loader sends, and the address a change redirects back to.
 */

/** The URL state a list keeps across its changes: page, page size and the e-mail search. */
const KEPT_KEYS = ["page", "pageSize", EMAIL_SEARCH_PARAM] as const;

/** The longest search accepted: an e-mail address has at most 320 characters. */
export const EMAIL_SEARCH_MAX = 320;

const emailSearchSchema = z.string().trim().max(EMAIL_SEARCH_MAX);

/**
 * Page, page size and e-mail search from the URL. Paging falls back to 1 and 20 on anything else (missing, text,
 * 0, 30); a search longer than an e-mail can be is refused with `searchError`, and the list is shown unsearched.
 */
type UserListQuery = { page: number; pageSize: number; email: string; searchError: string | null };

export function parseUserListPaging(url: URL): UserListQuery {
  const paging = parsePaging(url, USER_PAGE_SIZES);
  const search = emailSearchSchema.safeParse(url.searchParams.get(EMAIL_SEARCH_PARAM) ?? "");
  return search.success
    ? { ...paging, email: search.data, searchError: null }
    : { ...paging, email: "", searchError: messages.userSearchTooLong(EMAIL_SEARCH_MAX) };
}

/** What the shared table needs of one page; `rows` are already shaped for the screen. */
export function userListData<Row>(page: Omit<UserListPage, "rows">, rows: Row[], query: UserListQuery) {
  return {
    rows,
    total: page.total,
    rowCount: page.rowCount,
    page: page.page,
    pageSize: page.pageSize,
    pageSizes: [...USER_PAGE_SIZES],
    search: query.email,
    searchError: query.searchError,
  };
}

/**
 * `listPath` with the paging and search parameters the request carried (validated), and nothing else: where a
 * delete or tier change returns, so the user stays on the page and search they were looking at.
 */
export function userListUrl(listPath: string, request: Request): string {
  const url = new URL(request.url);
  const query = parseUserListPaging(url);
  const params = new URLSearchParams();
  for (const key of KEPT_KEYS)
    if (url.searchParams.get(key)) params.set(key, String(query[key === EMAIL_SEARCH_PARAM ? "email" : key]));
  if (!query.email) params.delete(EMAIL_SEARCH_PARAM);
  const text = params.toString();
  return text ? `${listPath}?${text}` : listPath;
}

/**
 * Where a creation returns: the page of the list on which the new user stands (any search dropped, the page size
 * kept), with `novo` naming the user so the list highlights the row.
 */
export function createdUserUrl(listPath: string, request: Request, email: string, page: number | null): string {
  const { pageSize } = parseUserListPaging(new URL(request.url));
  const params = new URLSearchParams();
  if (page !== null && page > 1) params.set("page", String(page));
  if (pageSize !== USER_PAGE_SIZES[0]) params.set("pageSize", String(pageSize));
  params.set(NEW_USER_PARAM, email);
  return `${listPath}?${params}`;
}

/**
 * The e-mail of a dialog parameter (`?delete=…`, `?user=…`) when it names a listed user: found on the shown
 * page, or else looked up, so a dialog link to a user of another page still opens. Null otherwise.
 */
export async function listedUserOf(
  email: string | null,
  shown: readonly { email: string }[],
  listedTypes: ReadonlyArray<PermissionType | "">,
): Promise<string | null> {
  if (!email || email.length > 320) return null;
  if (shown.some((r) => r.email === email)) return email;
  const record = await findPermissionRecord(email);
  return record && record.user === email && listedTypes.includes(record.type ?? "") ? record.user : null;
}

export const noStoreHeaders = { "Cache-Control": "no-store" } as const;
