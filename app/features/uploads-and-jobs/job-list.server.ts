import { ID_PARAM_MAX } from "~/shared/limits";
import { data } from "@remix-run/node";
import { ObjectId } from "mongodb";
import { z } from "zod";
import { canAccessRoute, RETRY_ADMIN_TYPE, type RouteId } from "~/access";
import type { AuthenticatedUser } from "~/features/access/auth.server";
import { accessContext } from "~/config.server";
import { formatDateTime } from "~/shared/dates";
import { parsePaging } from "~/shared/pagination";
import { messages } from "~/messages";
import { jobTexts } from "./texts";
import { listFilesPage, PAGE_SIZES, retryJob, type FileListItem } from "~/models/file-jobs.server";
import { nokBasesOfFiles } from "~/models/master-data-queries.server";
import { nokCollectionsOfFiles } from "~/models/upload-nok.server";
import { objectUrlPath } from "~/services/storage.server";
import { redirectWithToast } from "~/shared/toast.server";
import { jobStateText, jobStatusKind, type JobRow } from "./job-row";
import { canSeeNokRowsOf, nokRowsDownloadHref } from "./nok-rows.server";

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
  const kind = jobStatusKind(item.status, item.progress);
  return {
    id: item.id,
    name: item.originalName ?? "",
    user: item.user ?? "",
    date: formatDateTime(item.statusChangeDate),
    progress: Math.max(0, Math.min(100, Number(item.progress) || 0)),
    state: jobStateText(item, JOB_STATE_WORDS),
    status: item.status,
    kind,
    message: item.message ?? "",
    agent: item.agent ?? "",
    // Offered where a retry can succeed (the model refuses any other: retryJob).
    canRetry: kind === "error" && item.retryable && (item.user === viewer.email || viewer.type === RETRY_ADMIN_TYPE),
    nokRowsHref: null,
    nokRowsDownload: false,
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
  // Only a failed job has refused rows of an all-or-nothing upload (a successful run has none; a rerun clears them first).
  const refusable = items.filter(
    (item, i) => rows[i].kind === "error" && OBJECT_ID_HEX.test(item.id) && canSeeNokRowsOf(viewer, item.user ?? ""),
  );
  // Master-data files whose rows the viewer may download when the repository is closed to them.
  const downloadable = (item: FileListItem) => OBJECT_ID_HEX.test(item.id) && canSeeNokRowsOf(viewer, item.user ?? "");
  const [bases, uploadBases] = await Promise.all([
    masterData || items.some(downloadable) ? nokBasesOfFiles(paths) : new Map<string, string>(),
    nokCollectionsOfFiles(refusable.map((item) => ObjectId.createFromHexString(item.id))),
  ]);
  return rows.map((row, i) => {
    const base = bases.get(paths[i]);
    if (base && masterData)
      return {
        ...row,
        nokRowsHref: `/repo/master-data?${new URLSearchParams({ base: "nok", collection: base, file: paths[i] })}`,
      };
    if (base && downloadable(items[i]))
      return { ...row, nokRowsHref: nokRowsDownloadHref(row.id), nokRowsDownload: true };
    if (uploadBases.has(row.id)) return { ...row, nokRowsHref: nokRowsDownloadHref(row.id), nokRowsDownload: true };
    return row;
  });
}

/** One page of the job list; `ownOnly` restricts it to the viewer's uploads. */
export async function loadJobList(request: Request, viewer: AuthenticatedUser, options: { ownOnly: boolean }) {
  const { page, pageSize } = parseListParams(new URL(request.url));
  const result = await listFilesPage({ page, pageSize, user: options.ownOnly ? viewer.email : undefined });
  const rows = await withNokRowLinks(
    result.items.map((item) => toJobRow(item, viewer)),
    result.items,
    viewer,
  );
  return {
    rows,
    total: result.total,
    page: result.page,
    pageSize: result.pageSize,
    pageSizes: [...PAGE_SIZES],
    // The page polls while a listed job is still waiting or being processed.
    polling: rows.some((r) => r.kind === "in-progress"),
  };
}

/** The list's own address (page and size kept), whatever transport suffix the request carried. */
function listUrlOf(request: Request): string {
  const url = new URL(request.url);
  const params = new URLSearchParams();
  for (const key of ["page", "pageSize"]) {
    const value = url.searchParams.get(key);
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return `${url.pathname.replace(/\.data$/, "")}${query ? `?${query}` : ""}`;
}

const retrySchema = z.object({ intent: z.literal("retry"), fileId: z.string().trim().min(1).max(ID_PARAM_MAX) });

/**
 * The Retry button's action (both job lists). The model decides (owner or SYSTEM ADMIN, failures a retry can get
 * past only); a refusal answers 400/403/404/409 with the reason, a success redirects back with a toast.
 */
export async function handleRetryAction(request: Request, viewer: AuthenticatedUser) {
  const form = await request.formData().catch(() => null);
  const parsed = retrySchema.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success) return data({ ok: false as const, error: messages.badRequest }, { status: 400 });
  const decision = await retryJob(parsed.data.fileId, { email: viewer.email, type: viewer.type });
  if (!decision.ok) {
    const status =
      decision.reason === "forbidden"
        ? 403
        : decision.reason === "not-found"
          ? 404
          : decision.reason === "not-failed" || decision.reason === "not-retryable"
            ? 409
            : 400;
    return data({ ok: false as const, error: jobTexts.retryRefused[decision.reason] }, { status });
  }
  return redirectWithToast(listUrlOf(request), { type: "success", description: jobTexts.retryQueued });
}
