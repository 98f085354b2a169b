import { CYCLE_ACTIONS } from "./forecast-cycle.fields";

/**
 * The audit trail's stored vocabulary (docs/data-contract-workflow.md, `audit_log`): event types, the actions an
 * entry's details name, outcomes and the kinds of object an entry is about. Shared by the model, the screen's filters
 * and the browser. A new event type or action is added here (and its label in app/features/audit/texts.ts, which the
 * type check asks for; app/features/audit/labels.test.ts finds any action a writer names that is not listed).
 */

export const AUDIT_EVENTS = [
  // Access
  "signIn",
  "signOut",
  "sessionExpired",
  "firstAccess",
  "passwordSet",
  "passwordResetRequested",
  "passwordReset",
  // Administration
  "userCreated",
  "userDuplicated",
  "userDeleted",
  "userChanged",
  "configChanged",
  "tokenCreated",
  "tokenRevoked",
  "viewDeleted",
  // A message of the outbox opened on its page (it may hold a reset code)
  "mailRead",
  // Refusals
  "accessRefused",
  "uploadRefused",
  // Data in and out, edits and decisions (written by the features through app/platform/audit/record.server.ts)
  "dataImported",
  "dataExported",
  "dataEdited",
  "decision",
  // Comments on a grid's cells
  "commentAdded",
  "commentResolved",
  // A call another system made with a token (the API, SCIM)
  "apiCall",
  // The audit trail itself
  "auditExported",
  "auditPurged",
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/**
 * What an entry's `details.action` names, for events that take several kinds of action: the forecast cycle's decisions,
 * a job's retries, the preparers' changes and the saved versions.
 */
export const AUDIT_DETAIL_ACTIONS = [
  ...CYCLE_ACTIONS,
  "retry",
  "retryAll",
  "preparersLoaded",
  "preparerAdded",
  "preparerRemoved",
  "versionSaved",
  "versionDeleted",
] as const;
export type AuditDetailAction = (typeof AUDIT_DETAIL_ACTIONS)[number];

export const AUDIT_OUTCOMES = ["ok", "refused", "failed"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AUDIT_OBJECT_KINDS = [
  "user",
  "screen",
  "dataset",
  "file",
  "costCentre",
  "configuration",
  "session",
  "audit",
  "token",
  "cell",
] as const;
export type AuditObjectKind = (typeof AUDIT_OBJECT_KINDS)[number];

export function isAuditEvent(value: unknown): value is AuditEvent {
  return typeof value === "string" && (AUDIT_EVENTS as readonly string[]).includes(value);
}

export function isAuditOutcome(value: unknown): value is AuditOutcome {
  return typeof value === "string" && (AUDIT_OUTCOMES as readonly string[]).includes(value);
}

export function isAuditDetailAction(value: unknown): value is AuditDetailAction {
  return typeof value === "string" && (AUDIT_DETAIL_ACTIONS as readonly string[]).includes(value);
}
