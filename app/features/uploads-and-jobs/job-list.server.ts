import { data } from "@remix-run/node";
import { ObjectId } from "mongodb";
import { z } from "zod";
import { canAccessRoute, RETRY_ADMIN_TYPE, type RouteId } from "~/access";
import { accessContext } from "~/config.server";
import { messages } from "~/messages";
import {
  countRetryableJobs,
  type FileListItem,
  findFileById,
  JOB_FILE_PARAM,
  jobListPosition,
  listFilesPage,
  PAGE_SIZES,
  RETRY_BATCH_PARAM,
  RETRY_BATCH_PATTERN,
  type RetryDecision,
  retryBatchProgress,
  retryFailedJobs,
  retryJob,
} from "~/models/file-jobs.server";
import { nokBasesOfFiles } from "~/models/master-data-queries.server";
import { nokCollectionsOfFiles } from "~/models/upload-nok.server";
import { recordDataEvent } from "~/platform/audit/record.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { ALL_JOBS_PATH, OWN_JOBS_PATH } from "~/platform/import/job-notices.server";
import { canSeeNokRowsOf, nokRowsDownloadHref } from "~/platform/import/nok-rows.server";
import { objectUrlPath } from "~/services/storage.server";
import { formatDateTime } from "~/shared/dates";
import { ID_PARAM_MAX } from "~/shared/limits";
import { parsePaging } from "~/shared/pagination";
import { redirectWithToast } from "~/shared/toast.server";
import { fixRowsDownloadHref, templateOfNokCollection } from "./fix-rows.server";
import { type JobRow, jobStateText, jobStatusKind } from "./job-row";
import { jobTexts } from "./texts";

/** Page and page size from the URL; anything else (missing, text, 0, 30) falls back to 1 and 20. */
export function parseListParams(url: URL): { page: number; pageSize: number } {
  return parsePaging(url, PAGE_SIZES);
}

const JOB_STATE_WORDS = {
  completed: messages.jobCompleted,
  inProgress: messages.jobInProgress,
  refused: jobTexts.stateRefused,
  failed: jobTexts.stateFailed,
};

export function toJobRow(item: FileListItem, viewer: Pick<AuthenticatedUser, "email" | "type">): JobRow {
  const kind = jobStatusKind(item.status, item.progress, item.nokRows);
  return {
    id: item.id,
    name: item.originalName ?? "",
    user: item.user ?? "",
    date: formatDateTime(item.statusChangeDate),
    progress: Math.max(0, Math.min(100, Number(item.progress) || 0)),
    state: jobStateText(item, JOB_STATE_WORDS),
    refusedRows: kind === "partial" ? item.nokRows : 0,
    status: item.status,
    kind,
    message: item.message ?? "",
    agent: item.agent ?? "",
    // Offered where a retry can succeed (the model refuses any other: retryJob).
    canRetry: kind === "error" && item.retryable && (item.user === viewer.email || viewer.type === RETRY_ADMIN_TYPE),
    nokRowsHref: null,
    nokRowsDownload: false,
    fixRowsHref: null,
  };
}

const OBJECT_ID_HEX = /^[0-9a-fA-F]{24}$/;

/** The master-data page (its rule decides whether the job list links there). */
const MASTER_DATA_ROUTE: RouteId = "routes/repo.master-data._index";

/**
 * Links each listed file that has rejected rows to them: a spec-000 master-data file to the NOK base holding them on
 * /repo/master-data, narrowed to the file (its urlPath), for viewers whose type may open that page, and otherwise to
 * the CSV of its refused rows for its uploader (a USER BRONZE uploads master data but may not open the repository);
 * a failed all-or-nothing upload (spec-001 dataset, report package) to that CSV, for its uploader and the types that
 * may open /jobs/executados.
 */
async function withNokRowLinks(
  rows: JobRow[],
  items: FileListItem[],
  viewer: Pick<AuthenticatedUser, "email" | "type">,
): Promise<JobRow[]> {
  const paths = items.map((item) => objectUrlPath(item.bucket, item.originalFile));
  const masterData = canAccessRoute(viewer.type, MASTER_DATA_ROUTE, accessContext());
  // Decided from what the job recorded as it ended: one that refused no row has none to look up (a record from before
  // the count, or a job under way, is looked up).
  const mayHaveRows = (item: FileListItem) => !item.nokRowsRecorded || item.nokRows > 0;
  // Only a failed job has refused rows of an all-or-nothing upload (a successful run has none; a rerun clears them first).
  const refusable = items.filter(
    (item, i) =>
      rows[i].kind === "error" &&
      mayHaveRows(item) &&
      OBJECT_ID_HEX.test(item.id) &&
      canSeeNokRowsOf(viewer, item.user ?? ""),
  );
  // Master-data files whose rows the viewer may download when the repository is closed to them.
  const downloadable = (item: FileListItem) => OBJECT_ID_HEX.test(item.id) && canSeeNokRowsOf(viewer, item.user ?? "");
  const lookedUp = items.flatMap((item, i) => (mayHaveRows(item) ? [i] : []));
  const [bases, uploadBases] = await Promise.all([
    masterData || lookedUp.some((i) => downloadable(items[i]))
      ? nokBasesOfFiles(lookedUp.map((i) => paths[i]))
      : new Map<string, string>(),
    nokCollectionsOfFiles(refusable.map((item) => ObjectId.createFromHexString(item.id))),
  ]);
  return rows.map((row, i) => {
    const base = bases.get(paths[i]);
    const uploadBase = uploadBases.get(row.id);
    // The XLSX to fix and send again: a template's refused rows (not a report package's), for who may download them.
    const fixRowsHref =
      (base || (uploadBase && templateOfNokCollection(uploadBase))) && downloadable(items[i])
        ? fixRowsDownloadHref(row.id)
        : null;
    if (base && masterData)
      return {
        ...row,
        nokRowsHref: `/repo/master-data?${new URLSearchParams({ base: "nok", collection: base, file: paths[i] })}`,
        fixRowsHref,
      };
    if (base && downloadable(items[i]))
      return { ...row, nokRowsHref: nokRowsDownloadHref(row.id), nokRowsDownload: true, fixRowsHref };
    if (uploadBase) return { ...row, nokRowsHref: nokRowsDownloadHref(row.id), nokRowsDownload: true, fixRowsHref };
    return row;
  });
}

export { RETRY_BATCH_PARAM };

/** One page of the job list; `ownOnly` restricts it to the viewer's uploads. */
export async function loadJobList(request: Request, viewer: AuthenticatedUser, options: { ownOnly: boolean }) {
  const url = new URL(request.url);
  const { pageSize, ...paging } = parseListParams(url);
  const list = listFilter(viewer, options);
  const batchParam = url.searchParams.get(RETRY_BATCH_PARAM) ?? "";
  // A notice's link names its file: without a page of its own, the list opens on the page that holds it.
  const fileParam = url.searchParams.get(JOB_FILE_PARAM)?.slice(0, ID_PARAM_MAX) ?? "";
  const position = fileParam ? await jobListPosition(fileParam, list) : null;
  const page = position !== null && !url.searchParams.has("page") ? Math.floor(position / pageSize) + 1 : paging.page;
  const [result, retryAllCount, batch] = await Promise.all([
    listFilesPage({ page, pageSize, user: list.user }),
    countRetryableJobs(list, viewer),
    RETRY_BATCH_PATTERN.test(batchParam) ? retryBatchProgress(batchParam) : Promise.resolve(null),
  ]);
  const rows = await withNokRowLinks(
    result.items.map((item) => toJobRow(item, viewer)),
    result.items,
    viewer,
  );
  const batchRunning = batch !== null && batch.finished < batch.total;
  return {
    rows,
    total: result.total,
    page: result.page,
    pageSize: result.pageSize,
    pageSizes: [...PAGE_SIZES],
    /** The file the URL names, when this page holds it: its row is marked. */
    highlightedJobId: position !== null && rows.some((r) => r.id === fileParam) ? fileParam : null,
    /** How many failed jobs "Tentar novamente todos" would send back (0: the button is not offered). */
    retryAllCount,
    /** The progress of the batch named in the URL, from its jobs' states. */
    retryBatch: batch ? { ...batch, text: jobTexts.retryAllProgress(batch.finished, batch.total, batch.failed) } : null,
    // The page polls while a listed job is still waiting or being processed, or the batch it follows has not ended.
    polling: rows.some((r) => r.kind === "in-progress") || batchRunning,
  };
}

/** The list's filter: /captura/processando shows the viewer's own uploads, /jobs/executados everyone's. */
function listFilter(viewer: AuthenticatedUser, options: { ownOnly: boolean }): { user?: string } {
  return options.ownOnly ? { user: viewer.email } : {};
}

/** The list's own address (page and size kept), whatever transport suffix the request carried; `batch` adds `lote`. */
function listUrlOf(request: Request, batch?: string): string {
  const url = new URL(request.url);
  const params = new URLSearchParams();
  for (const key of ["page", "pageSize"]) {
    const value = url.searchParams.get(key);
    if (value) params.set(key, value);
  }
  if (batch) params.set(RETRY_BATCH_PARAM, batch);
  const query = params.toString();
  return `${url.pathname.replace(/\.data$/, "")}${query ? `?${query}` : ""}`;
}

const retrySchema = z.object({ intent: z.literal("retry"), fileId: z.string().trim().min(1).max(ID_PARAM_MAX) });
/** "Tentar novamente todos": without `confirm`, the question; with it (and the count the user saw), the retry. */
const retryAllSchema = z.object({
  intent: z.literal("retry-all"),
  confirm: z.literal("1").optional(),
  count: z.coerce.number().int().min(0).max(1e9).optional(),
});
const actionSchema = z.discriminatedUnion("intent", [retrySchema, retryAllSchema]);

/** What the job lists' action answers when it does not redirect. */
export type JobListActionData =
  | { ok: false; error: string; confirmRetryAll?: undefined }
  | { ok: true; confirmRetryAll: { count: number; question: string; note?: string } };

/**
 * The job lists' action: "Tentar novamente" on one job, and "Tentar novamente todos" (`retry-all`). The model decides
 * (owner or SYSTEM ADMIN, failures a retry can get past only); a refusal answers 400/403/404/409 with the reason, a
 * success redirects back with a toast. `ownOnly`: the list is the viewer's own uploads (/captura/processando).
 */
export async function handleRetryAction(
  request: Request,
  viewer: AuthenticatedUser,
  options: { ownOnly: boolean } = { ownOnly: true },
) {
  const form = await request.formData().catch(() => null);
  const parsed = actionSchema.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success) return data({ ok: false as const, error: messages.badRequest }, { status: 400 });
  if (parsed.data.intent === "retry-all") return retryAll(request, viewer, options, parsed.data);
  const decision = await retryOneJob(viewer, parsed.data.fileId);
  if (!decision.ok) {
    return data(
      { ok: false as const, error: jobTexts.retryRefused[decision.reason] },
      { status: retryRefusalStatus(decision.reason) },
    );
  }
  return redirectWithToast(listUrlOf(request), { type: "success", description: jobTexts.retryQueued });
}

/**
 * "Tentar novamente" on one job, for the lists and the API: the model decides (owner or SYSTEM ADMIN, failures a retry
 * can get past only), and a retry is an entry of whoever asked for it.
 */
export async function retryOneJob(viewer: AuthenticatedUser, fileId: string) {
  const decision = await retryJob(fileId, { email: viewer.email, type: viewer.type });
  if (!decision.ok) return decision;
  const retried = await findFileById(new ObjectId(fileId));
  await recordDataEvent(viewer, "decision", {
    dataset: null,
    object: { kind: "file", id: fileId, label: retried?.originalName ?? null },
    details: { action: "retry" },
  });
  return decision;
}

/** The HTTP status of a refused retry. */
export function retryRefusalStatus(reason: Exclude<RetryDecision, { ok: true }>["reason"]): number {
  if (reason === "forbidden") return 403;
  if (reason === "not-found") return 404;
  return reason === "not-failed" || reason === "not-retryable" ? 409 : 400;
}

/**
 * "Tentar novamente todos": the jobs are the list's (its filter, computed here, never ids from the browser) that the
 * viewer may retry. The first post answers the question naming the count (the page shows it without JavaScript);
 * the second, with confirm=1 and that count, sends them back in one conditional update and returns to the list
 * following the batch. A count that changed in between asks again; none to retry changes nothing (409).
 */
async function retryAll(
  request: Request,
  viewer: AuthenticatedUser,
  options: { ownOnly: boolean },
  input: z.infer<typeof retryAllSchema>,
) {
  const list = listFilter(viewer, options);
  const count = await countRetryableJobs(list, viewer);
  if (count === 0) return data({ ok: false as const, error: jobTexts.retryAllNone }, { status: 409 });
  if (input.confirm !== "1" || input.count !== count) {
    const confirmRetryAll = {
      count,
      question: jobTexts.retryAllQuestion(count),
      ...(input.confirm === "1" ? { note: jobTexts.retryAllChanged } : {}),
    };
    return data({ ok: true as const, confirmRetryAll });
  }
  const { batch, retried } = await retryFailedJobs(list, viewer);
  if (retried === 0) return data({ ok: false as const, error: jobTexts.retryAllNone }, { status: 409 });
  // The one who pressed it, from where: the jobs' owners are told only by their jobs' own endings.
  await recordDataEvent(viewer, "decision", {
    dataset: null,
    object: { kind: "screen", id: options.ownOnly ? OWN_JOBS_PATH : ALL_JOBS_PATH, label: null },
    details: { action: "retryAll", batch, retried },
  });
  return redirectWithToast(listUrlOf(request, batch), {
    type: "success",
    description: jobTexts.retryAllQueued(retried),
  });
}
