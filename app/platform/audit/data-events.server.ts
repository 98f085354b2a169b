import { OPERATOR_TYPE } from "~/access";
import type { AuditObjectKind, AuditOutcome } from "~/models/audit.fields";
import type { AuditEntry } from "~/models/audit.server";
import type { JobEnding } from "~/models/file-jobs.server";
import { FILE_STATUS_OK } from "~/models/files.server";
import { type EditedCell, editedCellsDetails } from "./edited-cells";
import { type AuditActorInput, type AuditDetailsInput, actorByEmail, recordAudit } from "./record.server";

/**
 * The data events of the audit trail: what left the portal (exports and downloads, with the filter used and
 * the row count), what came in (uploads, round trips, CLI imports: counts and outcome) and every save (the row count
 * and a link to the screen that shows the cell histories, never a copy of them). Details hold counts, filters and
 * short messages only: never row contents (the model masks any CPF that slips into a text).
 *
 * Every helper is awaited by its caller before the response that reports the event's success.
 */

export type AuditTarget = { kind: AuditObjectKind; id: string; label?: string | null };

/** A filter as the log keeps it: URL parameters (repeated ones as lists), or any small object. */
export type AuditFilterInput = URLSearchParams | Record<string, unknown> | null | undefined;

function filterOf(filter: AuditFilterInput): Record<string, unknown> {
  if (!filter) return {};
  if (filter instanceof URLSearchParams) {
    const out: Record<string, string | string[]> = {};
    for (const [key, value] of filter) {
      const seen = out[key];
      if (seen === undefined) out[key] = value;
      else out[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
    }
    return out;
  }
  return filter;
}

const withoutUndefined = (details: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));

/** Data out: an Excel export, a file, report, statement or list downloaded. `rows` when the count is known. */
export function recordExport(input: {
  actor: AuditActorInput;
  dataset?: string | null;
  object: AuditTarget;
  filter?: AuditFilterInput;
  rows?: number | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}): Promise<AuditEntry> {
  return recordAudit({
    actor: input.actor,
    event: "dataExported",
    object: input.object,
    dataset: input.dataset ?? null,
    outcome: "ok",
    details: withoutUndefined({ filter: filterOf(input.filter), rows: input.rows ?? undefined, ...input.details }),
    ...(input.ip !== undefined ? { ip: input.ip } : {}),
  });
}

/**
 * A download answered by `response`: recorded (and awaited) only when it succeeds (a 2xx, or a redirect to the
 * store's presigned address), then the response itself.
 */
export async function recordedDownload(
  response: Response,
  input: Parameters<typeof recordExport>[0],
): Promise<Response> {
  if (response.status < 400) await recordExport(input);
  return response;
}

/** Data in: an upload, a round trip or a CLI import, with its counts and outcome. */
export function recordImport(input: {
  actor: AuditActorInput;
  dataset?: string | null;
  object: AuditTarget;
  outcome?: AuditOutcome;
  details?: Record<string, unknown>;
  ip?: string | null;
}): Promise<AuditEntry> {
  return recordAudit({
    actor: input.actor,
    event: "dataImported",
    object: input.object,
    dataset: input.dataset ?? null,
    outcome: input.outcome ?? "ok",
    details: withoutUndefined(input.details ?? {}),
    ...(input.ip !== undefined ? { ip: input.ip } : {}),
  });
}

/** The counts of a round trip's report. */
type RoundTripCounts = { changed: number; conflicts: readonly unknown[]; refused: readonly unknown[] };

/**
 * A returned "Exportar Excel" file applied (through its screen, a queued job or /captura/manual): changed,
 * conflicts and refused, and where its report is. Outcome ok even with conflicts: the file was read and applied.
 */
export function recordRoundTrip(input: {
  actor: AuditActorInput;
  dataset: string;
  report: RoundTripCounts;
  /** The screen the report is shown on (`?excel=<id>`). */
  reportLink?: string | null;
  via: "screen" | "upload" | "job";
  fileName?: string | null;
  ip?: string | null;
}): Promise<AuditEntry> {
  return recordImport({
    actor: input.actor,
    dataset: input.dataset,
    object: { kind: "dataset", id: input.dataset, label: input.fileName ?? null },
    details: {
      roundTrip: true,
      via: input.via,
      changed: input.report.changed,
      conflicts: input.report.conflicts.length,
      refused: input.report.refused.length,
      link: input.reportLink ?? undefined,
    },
    ip: input.ip,
  });
}

/** The end of an upload job, as the worker (or the CLI) wrote it. */
export type UploadJobEnd = {
  fileId: string;
  fileName: string;
  /** The template or returned dataset it was read as, when recognised. */
  template?: string | null;
  /** The upload target (data, explorer, reports). */
  target?: string | null;
  status: number;
  message: string;
  ok: number;
  nok: number;
  /** Refused for the uploader's rights (not for the file's content). */
  refused?: boolean;
  via: "upload" | "cli";
};

const shortMessage = (message: string) => (message.length > 160 ? `${message.slice(0, 159)}…` : message);

/**
 * An upload job ended: dataImported with its counts and status, or uploadRefused when the uploader's rights refused
 * the file. `uploader` is the e-mail the job was recorded for; its name and type are read now (the job ends now);
 * `operator` for the CLI's own rights (no --user).
 */
export async function recordUploadEnded(
  uploader: { email: string; operator?: boolean; operatorType?: string },
  job: UploadJobEnd,
): Promise<AuditEntry> {
  const known = await actorByEmail(uploader.email);
  const actor = uploader.operator ? { ...known, type: uploader.operatorType ?? known.type } : known;
  const object = { kind: "file" as const, id: job.fileId, label: job.fileName };
  const details = withoutUndefined({
    via: job.via,
    target: job.target ?? undefined,
    ok: job.ok,
    nok: job.nok,
    status: job.status,
    message: shortMessage(job.message),
  });
  if (job.refused) {
    return recordAudit({
      actor,
      event: "uploadRefused",
      object,
      dataset: job.template ?? null,
      outcome: "refused",
      details,
      ip: null,
    });
  }
  return recordImport({
    actor,
    dataset: job.template ?? null,
    object,
    outcome: job.status === FILE_STATUS_OK ? "ok" : "failed",
    details,
    ip: null,
  });
}

/**
 * Edits: a save on a screen, with the rows it changed and a link to the screen that shows their cell histories; with
 * `cells`, the cells it wrote (from what it wrote: value before → after), bounded (edited-cells.ts). Recorded only for
 * a save that wrote something (`rows` > 0) unless `outcome` says otherwise.
 */
export async function recordEdit(input: {
  actor: AuditActorInput;
  dataset: string;
  /** The screen's path (its route, not the URL typed). */
  screen: string;
  rows: number;
  /** Where the cell histories are (the screen, or its history page). */
  historyLink: string;
  /** What was edited, named in words (a cost centre of an RF); else the screen. */
  object?: AuditTarget;
  outcome?: AuditOutcome;
  details?: AuditDetailsInput;
  /** The cells written (a row's key, the month "YYYY-MM", the value before and after). */
  cells?: readonly EditedCell[];
}): Promise<AuditEntry | null> {
  const outcome = input.outcome ?? "ok";
  if (outcome === "ok" && input.rows <= 0) return null;
  const cells = input.cells && input.cells.length > 0 ? editedCellsDetails(input.cells) : {};
  return recordAudit({
    actor: input.actor,
    event: "dataEdited",
    object: input.object ?? { kind: "screen", id: input.screen },
    dataset: input.dataset,
    outcome,
    details: withoutUndefined({ rows: input.rows, link: input.historyLink, ...input.details, ...cells }),
  });
}

/**
 * The end of a claimed upload job (the worker loop and `portal import`), from the claim and the ingest outcome;
 * nothing when the lease was lost (the worker that took the job over records its end).
 */
export async function recordJobEnded(
  claim: { id: { toString(): string }; originalName: string; user: string; operator: boolean; target?: string | null },
  outcome: JobEnding,
  via: "upload" | "cli",
): Promise<AuditEntry | null> {
  if (outcome.kind !== "done") return null;
  return recordUploadEnded(
    { email: claim.user, operator: claim.operator, operatorType: OPERATOR_TYPE },
    {
      fileId: claim.id.toString(),
      fileName: claim.originalName,
      template: outcome.template ?? null,
      target: claim.target ?? null,
      status: outcome.status,
      message: outcome.message,
      ok: outcome.okRows,
      nok: outcome.nokRows,
      refused: outcome.refused === true,
      via,
    },
  );
}
