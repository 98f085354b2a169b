/** The versions' limits and list row, shared by the server and the page (browser-safe). */

export const NAME_MAX = 120;
export const REASON_MAX = 1000;
export const VERSIONS_PAGE_SIZE = 20;
/** The approvals' page in the list's URL (the saved versions' is `page`). */
export const APPROVALS_PAGE_PARAM = "aprovacoes";

export type VersionListRow = {
  id: string;
  name: string;
  rf: string;
  kind: string;
  /** An approval's cost centre (the only one it holds). */
  costCenter: string | null;
  when: string;
  by: string;
  total: number;
  openHref: string;
  compareHref: string;
  exportHref: string;
  /** An approval: its cost centre's review compared with it. */
  reviewHref: string | null;
};

/** The largest form a version's save (name) or delete (reason) may post; the host refuses a longer body first. */
export const VERSION_SAVE_FORM_MAX_BYTES = 8 * 1024;
export const VERSION_DELETE_FORM_MAX_BYTES = 16 * 1024;
