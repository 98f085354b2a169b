import type { AuditDetailAction, AuditEvent, AuditObjectKind, AuditOutcome } from "~/models/audit.fields";
import { type AuditEntry, appendAuditEntry } from "~/models/audit.server";
import {
  countRefusal,
  type RefusalCountRecord,
  restoreRefusalCount,
  takeRefusalCount,
} from "~/models/audit-refusals.server";
import { findPermissionRecord } from "~/models/user-permissions.server";
import { normalizeEmail } from "~/models/users.server";
import { currentClientAddress } from "~/shared/client-address.server";

/**
 * How the portal writes its audit trail. Every path that reports an event's success awaits its entry first (the entry
 * is stored before the response), and failed or refused attempts are written too. What is kept is cleaned by the
 * model: no passwords, codes, tokens or session ids, CPF masked.
 *
 *   await recordAudit({ actor: user, event: "dataExported", object: { kind: "dataset", id: "planning" },
 *                       dataset: "planning", outcome: "ok", details: { rows: 120 } });
 */

/** Who did it: a signed-in user (its session id is never read), or just an e-mail (a sign-in attempt). */
export type AuditActorInput = { email: string; name?: string | null; type?: string | null } | null | undefined;

/** An entry's details: small values; an `action` is one of the listed actions (each has its label on the screen). */
export type AuditDetailsInput = { action?: AuditDetailAction; [key: string]: unknown };

export type AuditRecord = {
  actor?: AuditActorInput;
  event: AuditEvent;
  object?: { kind: AuditObjectKind; id: string; label?: string | null } | null;
  dataset?: string | null;
  outcome: AuditOutcome;
  details?: AuditDetailsInput;
  /** The client address; by default the current request's, as the trusted proxy chain gives it. */
  ip?: string | null;
  /** For tests on a pinned clock. */
  at?: Date;
};

/** Writes one entry (awaited: it is stored when this resolves). */
export function recordAudit(record: AuditRecord): Promise<AuditEntry> {
  const actor = record.actor
    ? { email: record.actor.email, name: record.actor.name ?? null, type: record.actor.type ?? null }
    : null;
  return appendAuditEntry(
    {
      actor,
      ip: record.ip ?? currentClientAddress(),
      event: record.event,
      object: record.object ?? null,
      dataset: record.dataset ?? null,
      outcome: record.outcome,
      details: record.details,
    },
    record.at,
  );
}

/** The actor behind an e-mail, with its name and type as the permission record holds them now. */
export async function actorByEmail(
  email: string,
): Promise<{ email: string; name: string | null; type: string | null }> {
  const normalized = normalizeEmail(String(email ?? "")).slice(0, 200);
  const record = normalized ? await findPermissionRecord(normalized) : null;
  return { email: normalized, name: record?.name ?? null, type: record?.type || null };
}

const userObject = (email: string) => ({ kind: "user" as const, id: normalizeEmail(email) });

// ---------------------------------------------------------------------------------------------
// Refusals

const MINUTE_MS = 60_000;
const minuteOf = (at: Date) => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
/** Summaries written per run of the scheduled task at most (the rest wait for the next run). */
const SUMMARIES_PER_RUN = 10_000;

/**
 * A 403 of the route guard: who, which screen (route id) and address, and why. Repeated refusals are aggregated per
 * actor, route, reason and UTC minute: the minute's first is written (awaited) as an entry of its own, the others are
 * counted (app/models/audit-refusals.server.ts) and written as one summary entry once the minute is over — by the
 * group's next refusal or by the "audit-refusal-summaries" task — so one account cannot flood the log, and every
 * refusal is counted in it. Answers the entry written, or null when the refusal was only counted.
 */
export async function recordAccessRefused(
  actor: AuditActorInput,
  screen: { routeId: string; path: string },
  reason: "notAllowed" | "crossOrigin",
  details: Record<string, unknown> = {},
  at: Date = new Date(),
): Promise<AuditEntry | null> {
  const email = actor?.email ? normalizeEmail(actor.email) : null;
  const key = {
    group: [email ?? "-", screen.routeId, reason].join("|"),
    minute: minuteOf(at),
    actor: actor ? { email, name: actor.name ?? null, type: actor.type ?? null } : null,
    route: { id: screen.routeId, path: screen.path },
    reason,
  };
  const ip = currentClientAddress();
  if ((await countRefusal(key, at, ip)) > 1) return null;
  // The group's earlier minutes are summed up first, so the log reads in order.
  await summarizeRefusals({ group: key.group, before: key.minute }, at);
  return recordAudit({
    actor,
    ip,
    event: "accessRefused",
    object: { kind: "screen", id: screen.routeId, label: screen.path },
    outcome: "refused",
    details: { reason, ...details },
    at,
  });
}

/** The summary entry of a minute's refusals after its first. */
function refusalSummary(taken: RefusalCountRecord, now: Date): Promise<AuditEntry> {
  return appendAuditEntry(
    {
      actor: taken.actor,
      ip: taken.lastIp,
      event: "accessRefused",
      object: { kind: "screen", id: taken.route.id, label: taken.route.path },
      outcome: "refused",
      details: {
        reason: taken.reason,
        repeated: taken.count - 1,
        minute: taken.minute.toISOString(),
        lastAt: taken.lastAt.toISOString(),
      },
    },
    now,
  );
}

/** Writes the summaries of the counters of minutes before `before` (of one group, or all); answers how many. */
async function summarizeRefusals(scope: { group?: string; before: Date }, now: Date, max = Infinity): Promise<number> {
  let written = 0;
  while (written < max) {
    const taken = await takeRefusalCount(scope);
    if (!taken) break;
    if (taken.count <= 1) continue;
    try {
      await refusalSummary(taken, now);
    } catch (error) {
      // Not lost: counted again, and summed up by the next run.
      await restoreRefusalCount(taken).catch(() => undefined);
      throw error;
    }
    written++;
  }
  return written;
}

/** The scheduled task: the summaries of every minute that has ended at `now`, for groups that went quiet. */
export function summarizeRepeatedRefusals(now: Date = new Date()): Promise<number> {
  return summarizeRefusals({ before: minuteOf(now) }, now, SUMMARIES_PER_RUN);
}

/** An upload refused for rights (the uploader may not load this dataset or target). */
export function recordUploadRefused(
  actor: AuditActorInput,
  upload: { fileName: string; dataset?: string | null; reason: string },
): Promise<AuditEntry> {
  return recordAudit({
    actor,
    event: "uploadRefused",
    object: { kind: "file", id: upload.fileName },
    dataset: upload.dataset ?? null,
    outcome: "refused",
    details: { reason: upload.reason },
  });
}

// ---------------------------------------------------------------------------------------------
// Administration

/** The fields of a user that administration changes, as they were and as they are. */
export type UserAccessFields = {
  type?: string | null;
  flags?: readonly string[] | Record<string, boolean> | null;
  branches?: readonly string[] | null;
  stores?: readonly string[] | null;
};

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The fields that differ, before → after (only those). */
export function userChanges(
  before: UserAccessFields,
  after: UserAccessFields,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const key of ["type", "flags", "branches", "stores"] as const) {
    if (!(key in after) || sameValue(before[key], after[key])) continue;
    out.before[key] = before[key] ?? null;
    out.after[key] = after[key] ?? null;
  }
  return out;
}

/** A user's type, flags, branches or stores changed by an administrator (before → after); nothing when none changed. */
export async function recordUserChanged(
  actor: AuditActorInput,
  email: string,
  before: UserAccessFields,
  after: UserAccessFields,
  outcome: AuditOutcome = "ok",
  details: Record<string, unknown> = {},
): Promise<AuditEntry | null> {
  const changes = userChanges(before, after);
  if (outcome === "ok" && Object.keys(changes.after).length === 0) return null;
  return recordAudit({
    actor,
    event: "userChanged",
    object: userObject(email),
    outcome,
    details: { ...changes, ...details },
  });
}

/** A user created, duplicated (from `source`) or deleted; `outcome` other than ok with the reason. */
export function recordUserAdministration(
  actor: AuditActorInput,
  event: "userCreated" | "userDuplicated" | "userDeleted",
  email: string,
  outcome: AuditOutcome,
  details: Record<string, unknown> = {},
): Promise<AuditEntry> {
  return recordAudit({ actor, event, object: userObject(email), outcome, details });
}

/** A configuration changed from a screen: which setting, before → after. */
export function recordConfigChanged(
  actor: AuditActorInput,
  setting: { id: string; label?: string },
  before: unknown,
  after: unknown,
): Promise<AuditEntry> {
  return recordAudit({
    actor,
    event: "configChanged",
    object: { kind: "configuration", id: setting.id, label: setting.label ?? null },
    outcome: "ok",
    details: { before, after },
  });
}

// ---------------------------------------------------------------------------------------------
// Data in and out, edits and decisions (the features call this)

/**
 * A dataset loaded, exported or edited, or a decision taken (approve, return …), on `object` (a file, a cost centre,
 * the dataset itself). `details` stays small: counts, the filter, before → after of a decision; never row contents.
 */
export function recordDataEvent(
  actor: AuditActorInput,
  event: "dataImported" | "dataExported" | "dataEdited" | "decision",
  target: {
    dataset: string | null;
    object?: { kind: AuditObjectKind; id: string; label?: string | null } | null;
    outcome?: AuditOutcome;
    details?: AuditDetailsInput;
  },
): Promise<AuditEntry> {
  return recordAudit({
    actor,
    event,
    dataset: target.dataset,
    object: target.object ?? (target.dataset ? { kind: "dataset", id: target.dataset } : null),
    outcome: target.outcome ?? "ok",
    details: target.details,
  });
}
