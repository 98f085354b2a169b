import { parsePaging } from "~/shared/pagination";
import { findPermissionRecord, USER_PAGE_SIZES } from "~/models/user-permissions.server";
import type { PermissionType } from "~/models/users.server";
import type { UserListPage } from "~/features/access/accounts.server";

/**
 * Server half of the two user-administration lists (/user/config, /user/permission): the paging
 * parameters of the URL, the answer a list loader sends, and the address a change redirects back to.
 */

const PAGING_KEYS = ["page", "pageSize"] as const;

/** Page and page size from the URL; anything else (missing, text, 0, 30) falls back to 1 and 20. */
type UserListPaging = { page: number; pageSize: number };

export function parseUserListPaging(url: URL): UserListPaging {
  return parsePaging(url, USER_PAGE_SIZES);
}

/** What the shared table needs of one page; `rows` are already shaped for the screen. */
export function userListData<Row>(page: Omit<UserListPage, "rows">, rows: Row[]) {
  return { rows, total: page.total, rowCount: page.rowCount, page: page.page, pageSize: page.pageSize, pageSizes: [...USER_PAGE_SIZES] };
}

/**
 * `listPath` with the paging parameters the request carried (validated), and nothing else: where a create,
 * delete or tier change returns, so the user stays on the page they were looking at.
 */
export function userListUrl(listPath: string, request: Request): string {
  const url = new URL(request.url);
  const paging = parseUserListPaging(url);
  const params = new URLSearchParams();
  for (const key of PAGING_KEYS) if (url.searchParams.has(key)) params.set(key, String(paging[key]));
  const query = params.toString();
  return query ? `${listPath}?${query}` : listPath;
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
