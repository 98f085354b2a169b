import { canAccessRoute, type RouteId } from "~/access";
import { accessContext } from "~/config.server";
import {
  claimJobEndingNotice,
  claimRetryBatchSummary,
  JOB_FILE_PARAM,
  type JobClaim,
  RETRY_BATCH_PARAM,
} from "~/models/file-jobs.server";
import { FILE_STATUS_OK } from "~/models/files.server";
import { branchScopeOf, HR_AUX_NOK } from "~/models/hr.server";
import { type NoticeInput, notify } from "~/models/notices.server";
import { type NokCollection, nokCollectionOfFile, nokRowsCursor } from "~/models/upload-nok.server";
import { usersByEmail, usersOfTypes } from "~/models/user-permissions.server";
import { getPreferencesOf, normalizeEmail, ON_CALL_TYPE } from "~/models/user-preferences.server";
import type { PermissionType } from "~/models/users.server";
import { recordJobEnded } from "~/platform/audit/data-events.server";
import { noticeDeliveryTexts } from "~/platform/notices/texts";
import { objectUrlPath } from "~/services/storage.server";
import { canSeeNokRowsOf, maskCpfColumn, nokRowsDownloadHref } from "./nok-rows.server";

/**
 * Notices of jobs: when a job ends with refused rows, is refused or fails, its uploader is told (the
 * in-portal list and, unless switched off, e-mail: notify()), and so is every SYSTEM ADMIN on call
 * (user_preferences.on_call_failures). A job that ends without errors is told only to an uploader who asked for it.
 * The operator's CLI import without --user has no uploader to tell: only those on call.
 *
 * One notice per ending: the claim that finished the job takes the right to tell it once (files.notifiedEnding), so
 * the same ending handled twice tells nobody twice, and a retried job that ends badly again is told again.
 * notifyJobEnded never throws: a notice must never fail or hold the job.
 */

export type JobEndingKind = "succeeded" | "refused-rows" | "refused" | "failed";

/** The number of refused rows whose reasons a notice quotes. */
export const REASONS_QUOTED = 3;

/** Where a notice's recipient opens the job: the uploader's own list, or every user's list. */
export const OWN_JOBS_PATH = "/captura/processando";
export const ALL_JOBS_PATH = "/jobs/executados";
const ALL_JOBS_ROUTE: RouteId = "routes/jobs.executados";

export type EndedJob = { status: number; message: string; okRows: number; nokRows: number; retryable: boolean };

/** How a job ended, as its notice says: refused rows on a job that loaded the rest; a refusal; a failure. */
export function jobEndingKind(job: Pick<EndedJob, "status" | "nokRows" | "retryable">): JobEndingKind {
  if (job.status === FILE_STATUS_OK) return job.nokRows > 0 ? "refused-rows" : "succeeded";
  // A failure a retry can get past (a crash, a stall, storage) failed; anything else refused the file itself.
  return job.retryable ? "failed" : "refused";
}

const OUTCOME_TEXT: Record<JobEndingKind, string> = {
  succeeded: noticeDeliveryTexts.jobOutcomeSucceeded,
  "refused-rows": noticeDeliveryTexts.jobOutcomeRefusedRows,
  refused: noticeDeliveryTexts.jobOutcomeRefused,
  failed: noticeDeliveryTexts.jobOutcomeFailed,
};

type Recipient = { email: string; type: PermissionType | ""; uploader: boolean };

type JobLog = (level: "info" | "warn" | "error", msg: string, fields?: Record<string, unknown>) => void;

/**
 * Tells the ending of the claim's job to whom it concerns. Call it after the claim finished the job; an outcome
 * of a lost lease tells nothing (the claim that finished the job tells). Never throws: a failure is logged.
 */
export async function notifyJobEnded(
  claim: JobClaim,
  outcome: { kind: "done"; okRows: number; nokRows: number } | { kind: "lease-lost" },
  options: { log?: JobLog; now?: Date } = {},
): Promise<void> {
  if (outcome.kind !== "done") return;
  try {
    const ended = await claimJobEndingNotice(claim);
    if (!ended) return;
    const job: EndedJob = { ...ended, okRows: outcome.okRows, nokRows: outcome.nokRows };
    const rerunBy = rerunByOther(claim, ended.retriedBy);
    const notices = rerunBy
      ? await rerunNotices(claim, job, rerunBy, ended.retryBatch !== null)
      : await jobNotices(claim, job, { uploaderAlways: false });
    // Whichever job of a batch ends last (the presser's own too) sends its summary.
    if (ended.retryBatch && ended.retriedBy) notices.push(...(await batchSummary(ended.retryBatch, ended.retriedBy)));
    if (notices.length > 0) await notify(notices, options.now);
  } catch (error) {
    options.log?.("error", "job notice failed", { fileId: String(claim.id), error: (error as Error).message });
  }
}

/** Who sent the job back, when it was someone other than its uploader (an administrator's retry). */
function rerunByOther(claim: JobClaim, retriedBy: string | null): string | null {
  if (!retriedBy) return null;
  const by = normalizeEmail(retriedBy);
  return claim.operator || by !== normalizeEmail(claim.user) ? by : null;
}

/**
 * A job someone else sent back: its uploader is told only when the file now loads (whatever their success setting),
 * with who re-ran it; those on call are not told again. The one who sent it back is told of a single retry's ending,
 * or, for "Tentar novamente todos", once, when the batch's last job ends: how many, how many failed again, a link.
 */
async function rerunNotices(claim: JobClaim, job: EndedJob, rerunBy: string, inBatch: boolean): Promise<NoticeInput[]> {
  const loaded = job.status === FILE_STATUS_OK;
  const told = loaded ? await jobNotices(claim, job, { uploaderAlways: true, onCall: false, rerunBy }) : [];
  if (inBatch) return told;
  const toRetrier = await jobNotices(claim, job, { uploaderAlways: false, onCall: false, only: rerunBy });
  return [...told, ...toRetrier];
}

/** The summary of a "Tentar novamente todos" for whoever pressed it, once its last job has ended (else nothing). */
async function batchSummary(batch: string, pressedBy: string): Promise<NoticeInput[]> {
  const summary = await claimRetryBatchSummary(batch);
  if (!summary) return [];
  const to = normalizeEmail(pressedBy);
  const type = (await usersByEmail([to])).get(to)?.type ?? "";
  // The list the presser may open: everyone's jobs, or their own (a batch of their own failures).
  const list = type !== "" && canAccessRoute(type, ALL_JOBS_ROUTE, accessContext()) ? ALL_JOBS_PATH : OWN_JOBS_PATH;
  return [
    {
      to,
      kind: "job.retryBatch",
      title: noticeDeliveryTexts.retryBatchTitle(summary.total),
      body: noticeDeliveryTexts.retryBatchBody(summary.total, summary.failed),
      link: `${list}?${RETRY_BATCH_PARAM}=${batch}`,
    },
  ];
}

type NoticeOptions = {
  /** Tell the uploader even of a success they did not ask to hear of. */
  uploaderAlways: boolean;
  /** Tell those on call of a failure (default true). */
  onCall?: boolean;
  /** Who re-ran the job, named in the uploader's notice. */
  rerunBy?: string;
  /** Tell only this person, as someone other than the uploader. */
  only?: string;
};

/** The notices of one ended job: its uploader's and those on call's (each person once). */
async function jobNotices(claim: JobClaim, job: EndedJob, options: NoticeOptions): Promise<NoticeInput[]> {
  if (options.only) {
    const only = normalizeEmail(options.only);
    const type = (await usersByEmail([only])).get(only)?.type ?? "";
    return noticesFor(claim, job, [{ email: only, type, uploader: false }], options.rerunBy);
  }
  const kind = jobEndingKind(job);
  const uploader = claim.operator ? null : normalizeEmail(claim.user);
  const admins = kind === "succeeded" || options.onCall === false ? [] : await usersOfTypes([ON_CALL_TYPE]);
  const candidates = [...new Set([...(uploader ? [uploader] : []), ...admins.map((a) => normalizeEmail(a.user))])];
  if (candidates.length === 0) return [];
  const [preferences, types] = await Promise.all([getPreferencesOf(candidates), usersByEmail(candidates)]);
  const recipients: Recipient[] = [];
  const uploaderTold =
    kind !== "succeeded" || options.uploaderAlways || preferences.get(uploader ?? "")?.jobSuccessNotices === true;
  if (uploader && uploaderTold)
    recipients.push({ email: uploader, type: types.get(uploader)?.type ?? "", uploader: true });
  for (const admin of admins) {
    const email = normalizeEmail(admin.user);
    // Those on call: still SYSTEM ADMIN now (a type changed since the switch was set no longer counts).
    if (email === uploader || types.get(email)?.type !== ON_CALL_TYPE) continue;
    if (preferences.get(email)?.onCallFailures !== true) continue;
    recipients.push({ email, type: ON_CALL_TYPE, uploader: false });
  }
  return noticesFor(claim, job, recipients, options.rerunBy);
}

/** Each recipient's notice of the job: file, uploader (to others), who re-ran it, outcome, counts, reasons, links. */
async function noticesFor(
  claim: JobClaim,
  job: EndedJob,
  recipients: Recipient[],
  rerunBy: string | undefined,
): Promise<NoticeInput[]> {
  if (recipients.length === 0) return [];
  const kind = jobEndingKind(job);
  const uploader = claim.operator ? null : normalizeEmail(claim.user);
  const urlPath = objectUrlPath(claim.bucket, claim.originalFile);
  const nokCollection = job.nokRows > 0 ? await nokCollectionOfFile(claim.id, undefined, urlPath) : null;
  const context = accessContext();
  const reasonsByScope = new Map<string, Promise<string[]>>();
  return Promise.all(
    recipients.map(async (recipient) => {
      const reasons = await reasonsFor(recipient, claim, job, nokCollection, urlPath, reasonsByScope);
      const outcome = OUTCOME_TEXT[kind];
      const nokPath =
        // An account without a type may open nothing: no link to the refused rows.
        nokCollection &&
        recipient.type !== "" &&
        canSeeNokRowsOf({ ...recipient, type: recipient.type }, uploader ?? "")
          ? nokRowsDownloadHref(claim.id.toHexString())
          : null;
      const lines = [
        noticeDeliveryTexts.jobNoticeFile(claim.originalName),
        ...(recipient.uploader ? [] : [noticeDeliveryTexts.jobNoticeUploader(claim.user)]),
        ...(rerunBy && recipient.uploader ? [noticeDeliveryTexts.jobNoticeRerunBy(rerunBy)] : []),
        noticeDeliveryTexts.jobNoticeOutcome(outcome),
        noticeDeliveryTexts.jobNoticeCounts(job.okRows, job.nokRows),
        ...(reasons.length > 0 ? [noticeDeliveryTexts.jobNoticeReasons, ...reasons.map((r) => `- ${r}`)] : []),
      ];
      const list = recipient.uploader
        ? OWN_JOBS_PATH
        : canAccessRoute(recipient.type, ALL_JOBS_ROUTE, context)
          ? ALL_JOBS_PATH
          : undefined;
      // "Abrir": the list on the page that holds this file, its row marked.
      const link = list ? `${list}?${JOB_FILE_PARAM}=${claim.id.toHexString()}` : undefined;
      return {
        to: recipient.email,
        kind: `job.${kind}`,
        title: noticeDeliveryTexts.jobNoticeTitle(outcome, claim.originalName),
        body: lines.join("\n"),
        ...(link ? { link } : {}),
        // The refused rows: a link of their own, on the page and in the e-mail.
        ...(nokPath ? { links: [{ label: noticeDeliveryTexts.jobNoticeNokRows, path: nokPath }] } : {}),
      };
    }),
  );
}

/**
 * The first reasons a notice quotes: the first REASONS_QUOTED refused rows (line and error, in line order) when the
 * job refused rows, else the job's message when it did not succeed. HR rows as the refused-rows CSV shows them to
 * the recipient: the recipient's branches only, any CPF masked.
 */
async function reasonsFor(
  recipient: Recipient,
  claim: JobClaim,
  job: EndedJob,
  nokCollection: NokCollection | null,
  urlPath: string,
  cache: Map<string, Promise<string[]>>,
): Promise<string[]> {
  if (nokCollection) {
    const hr = nokCollection === HR_AUX_NOK;
    const scope = hr ? await branchScopeOf(recipient.email) : null;
    const branches = scope?.kind === "stores" ? scope.stores : undefined;
    const key = branches ? JSON.stringify([...branches].sort()) : "all";
    let reasons = cache.get(key);
    if (!reasons) {
      reasons = firstNokReasons(nokCollection, claim, urlPath, hr, branches);
      cache.set(key, reasons);
    }
    const found = await reasons;
    if (found.length > 0) return found;
  }
  return job.status !== FILE_STATUS_OK && job.message ? [job.message] : [];
}

async function firstNokReasons(
  collection: NokCollection,
  claim: JobClaim,
  urlPath: string,
  hr: boolean,
  branches: readonly string[] | undefined,
): Promise<string[]> {
  const cursor = await nokRowsCursor(collection, { id: claim.id, urlPath }, [], undefined, branches);
  try {
    const rows = await cursor.limit(REASONS_QUOTED).toArray();
    return rows.map((row) => {
      const error = String(row.Error ?? "");
      return noticeDeliveryTexts.jobNoticeLineReason(
        row._lineNumber,
        String(hr ? maskCpfColumn("Error", error) : error),
      );
    });
  } finally {
    await cursor.close().catch(() => undefined);
  }
}

/**
 * What every path that ends a claimed job does next, in this order: the audit trail records the ending (`via`: the
 * worker loop or `portal import`), then the people it concerns are told (never throws, so the ending stands).
 */
export async function announceJobEnded(
  claim: JobClaim,
  outcome: Parameters<typeof recordJobEnded>[1] & Parameters<typeof notifyJobEnded>[1],
  via: "upload" | "cli",
  options: { log?: JobLog } = {},
): Promise<void> {
  await recordJobEnded(claim, outcome, via);
  await notifyJobEnded(claim, outcome, options);
}
