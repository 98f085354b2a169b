/** The seven permission types of spec 000 §6. Shared by the browser (menus) and the server (guards). */
export const PERMISSION_TYPES = [
  "SYSTEM ADMIN",
  "USER ADMIN",
  "USER EXPLORER",
  "USER BRONZE",
  "USER SILVER",
  "USER GOLD",
  "USER PERMISS",
] as const;
export type PermissionType = (typeof PERMISSION_TYPES)[number];

/**
 * Who may retry a failed job besides its uploader (docs/decisions.md). Here rather than in app/access.ts (which
 * re-exports it) because the job model enforces it and the data layer does not reach the rights table.
 */
export const RETRY_ADMIN_TYPE: PermissionType = "SYSTEM ADMIN";

/** Default of HR_EDITOR_TYPES (docs/decisions.md): the types that edit HR auxiliary figures and comments. */
export const DEFAULT_HR_EDITOR_TYPES: readonly PermissionType[] = ["SYSTEM ADMIN", "USER GOLD"];

/** Default of FORECAST_REVIEWER_TYPES (docs/decisions.md "Forecast cycle"): the types that approve or return a forecast. */
export const DEFAULT_FORECAST_REVIEWER_TYPES: readonly PermissionType[] = ["SYSTEM ADMIN"];
