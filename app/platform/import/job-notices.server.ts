import { canAccessRoute, type RouteId } from "~/access";
import { accessContext } from "~/config.server";
import {
  claimJobEndingNotice,
  claimRetryBatchSummary,
  JOB_FILE_PARAM,
  type JobClaim,
  listRetryBatchJobs,
  RETRY_BATCH_PARAM,
  type RetryBatchJob,
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
 * the same ending handled twice tells nobody twice, and a retried job that ends badly again is told again. The jobs of
 * a "Tentar novamente todos" are not told one by one: when the batch's last job ends, each person its jobs concern
 * gets one summary listing them (batchSummaries).
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
    // A job of a batch is told only in its summaries, which whichever of its jobs ends last sends.
    const notices =
      ended.retryBatch && ended.retriedBy
        ? await batchSummaries(ended.retryBatch, ended.retriedBy)
        : rerunBy
          ? await rerunNotices(claim, job, rerunBy)
          : await jobNotices(claim, job, { uploaderAlways: false });
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
 * A job someone else sent back ("Tentar novamente" on one job): its uploader is told only when the file now loads
 * (whatever their success setting), with who re-ran it; those on call are not told again. The one who sent it back is
 * told of its ending.
 */
async function rerunNotices(claim: JobClaim, job: EndedJob, rerunBy: string): Promise<NoticeInput[]> {
  const loaded = job.status === FILE_STATUS_OK;
  const told = loaded ? await jobNotices(claim, job, { uploaderAlways: true, onCall: false, rerunBy }) : [];
  const toRetrier = await jobNotices(claim, job, { uploaderAlways: false, onCall: false, only: rerunBy });
  return [...told, ...toRetrier];
}

/** Files a batch summary lists at most, and the room its lines take (a notice's body is cut at 4,000 characters). */
const BATCH_FILES_LISTED = 30;
const BATCH_BODY_ROOM = 3_800;

/**
 * The summaries of a "Tentar novamente todos" once its last job has ended (else nothing; once per batch): one notice
 * to each person its jobs concern, by the rules a single ending follows, each listing their files and how each ended.
 * Whoever pressed it: every file, linked to the batch's progress. An uploader whose file they re-ran: their files,
 * when one of them now loads (a failure again is no news to them). Those on call: the presser's own files that did not
 * end clean (another's failures were told to them when they first failed).
 */
async function batchSummaries(batch: string, pressedBy: string): Promise<NoticeInput[]> {
  if (!(await claimRetryBatchSummary(batch))) return [];
  const jobs = await listRetryBatchJobs(batch);
  if (jobs.length === 0) return [];
  const presser = normalizeEmail(pressedBy);
  const ownerOf = (job: RetryBatchJob) => (job.operator ? null : normalizeEmail(job.user));
  const byOwner = new Map<string, RetryBatchJob[]>();
  for (const job of jobs) {
    const owner = ownerOf(job);
    if (owner && owner !== presser) byOwner.set(owner, [...(byOwner.get(owner) ?? []), job]);
  }
  const ownNotClean = jobs.filter((job) => ownerOf(job) === presser && jobEndingKind(job) !== "succeeded");
  const [types, onCall] = await Promise.all([
    usersByEmail([presser]),
    ownNotClean.length > 0 ? onCallAdmins() : Promise.resolve([]),
  ]);
  const type = types.get(presser)?.type ?? "";
  // The list the presser may open: everyone's jobs, or their own (a batch of their own failures).
  const list = type !== "" && canAccessRoute(type, ALL_JOBS_ROUTE, accessContext()) ? ALL_JOBS_PATH : OWN_JOBS_PATH;
  const kind = "job.retryBatch";
  const notices: NoticeInput[] = [
    {
      to: presser,
      kind,
      title: noticeDeliveryTexts.retryBatchTitle(jobs.length),
      body: batchBody(jobs, presser, []),
      link: `${list}?${RETRY_BATCH_PARAM}=${batch}`,
    },
  ];
  for (const [owner, files] of byOwner) {
    if (!files.some((job) => job.status === FILE_STATUS_OK)) continue;
    notices.push({
      to: owner,
      kind,
      title: noticeDeliveryTexts.retryBatchOthersTitle(presser, files.length),
      body: batchBody(files, owner, [noticeDeliveryTexts.jobNoticeRerunBy(presser)]),
      link: files.length === 1 ? `${OWN_JOBS_PATH}?${JOB_FILE_PARAM}=${files[0].id.toHexString()}` : OWN_JOBS_PATH,
    });
  }
  for (const admin of onCall) {
    if (admin === presser) continue;
    notices.push({
      to: admin,
      kind,
      title: noticeDeliveryTexts.retryBatchOthersTitle(presser, ownNotClean.length),
      body: batchBody(ownNotClean, admin, []),
      link: `${ALL_JOBS_PATH}?${RETRY_BATCH_PARAM}=${batch}`,
    });
  }
  return notices;
}

/** A summary's text: its first lines, the counts, then each file (its uploader when not the recipient), cut to fit. */
function batchBody(files: readonly RetryBatchJob[], recipient: string, head: readonly string[]): string {
  const failed = files.filter((job) => job.status !== FILE_STATUS_OK).length;
  const lines = [...head, noticeDeliveryTexts.retryBatchBody(files.length, failed)];
  let room = BATCH_BODY_ROOM - lines.join("\n").length;
  let listed = 0;
  for (const job of files) {
    const uploader = job.operator || normalizeEmail(job.user) === recipient ? null : job.user || null;
    const line = noticeDeliveryTexts.retryBatchFile(job.originalName, OUTCOME_TEXT[jobEndingKind(job)], uploader);
    if (listed === BATCH_FILES_LISTED || line.length + 1 > room) break;
    lines.push(line);
    room -= line.length + 1;
    listed++;
  }
  if (listed < files.length) lines.push(noticeDeliveryTexts.retryBatchMore(files.length - listed));
  return lines.join("\n");
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
  const [onCall, uploaderFacts] = await Promise.all([
    kind === "succeeded" || options.onCall === false ? Promise.resolve([]) : onCallAdmins(),
    uploader ? Promise.all([getPreferencesOf([uploader]), usersByEmail([uploader])]) : Promise.resolve(null),
  ]);
  const recipients: Recipient[] = [];
  if (uploader && uploaderFacts) {
    const [preferences, types] = uploaderFacts;
    if (kind !== "succeeded" || options.uploaderAlways || preferences.get(uploader)?.jobSuccessNotices === true)
      recipients.push({ email: uploader, type: types.get(uploader)?.type ?? "", uploader: true });
  }
  for (const email of onCall) {
    if (email !== uploader) recipients.push({ email, type: ON_CALL_TYPE, uploader: false });
  }
  return noticesFor(claim, job, recipients, options.rerunBy);
}

/**
 * Those on call: the SYSTEM ADMINs who switched on_call_failures on and are still SYSTEM ADMIN now (a type changed
 * since the switch was set no longer counts).
 */
async function onCallAdmins(): Promise<string[]> {
  const admins = [...new Set((await usersOfTypes([ON_CALL_TYPE])).map((admin) => normalizeEmail(admin.user)))];
  if (admins.length === 0) return [];
  const [preferences, types] = await Promise.all([getPreferencesOf(admins), usersByEmail(admins)]);
  return admins.filter(
    (email) => types.get(email)?.type === ON_CALL_TYPE && preferences.get(email)?.onCallFailures === true,
  );
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
