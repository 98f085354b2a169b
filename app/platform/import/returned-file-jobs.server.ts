import { Readable } from "node:stream";
import { redirect } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { excelReportView } from "~/models/excel-imports.server";
import { ownJobState } from "~/models/file-jobs.server";
import type { FileDataClass } from "~/models/files.fields";
import { FILE_PROGRESS_DONE, FILE_STATUS_OK } from "~/models/files.server";
import { generateStorageKey } from "~/services/storage.server";
import type { ExcelPanelData } from "~/shared/excel/panel";
import { EXCEL_REPORT_PARAM } from "~/shared/excel/round-trip.server";
import { excelTexts } from "~/shared/excel/texts";
import { redirectWithToast } from "~/shared/toast.server";
import { registerUpload, uploadTarget } from "./upload.server";

/**
 * An edited export too large to apply while its sender waits on one request: the grid's Excel route keeps it as an
 * upload, the worker applies it as it applies one sent through /captura/manual (the same rules, the sender's rights),
 * and the screen follows the job (`?excelJob=<id>`) until it ends, then shows the report as after a small file.
 *
 * The size is `EXCEL_IMPORT_INLINE_MAX_BYTES` (2 MB: past it, applying the file would keep its sender waiting on the
 * request too long; docs/performance.md, bench/roundtrip).
 */

/** The screen's URL parameter naming the job of a queued edited export. */
export const EXCEL_JOB_PARAM = "excelJob";

/** Whether a returned file is applied in a job rather than in the request. */
export const appliesInJob = (size: number) => size > getConfig().excelImportInlineMaxBytes;

/**
 * Stores the file as the sender's upload and registers its job; the job's id, or a message. `dataClass`: what the
 * queuing screen's round trip says its rows are (RoundTripDataset.dataClass); an HR grid's export is stored as an HR
 * file (files.fields.ts), so it leaves the repository scoped and masked from the moment it is stored.
 */
export async function queueReturnedFile(
  file: { bytes: Buffer; name: string },
  user: string,
  dataClass?: FileDataClass,
): Promise<{ ok: true; id: string } | { ok: false; message: string }> {
  const key = generateStorageKey(file.name);
  const target = uploadTarget(Math.max(file.bytes.length, 1));
  try {
    await target.put(key, Readable.from([file.bytes]));
  } catch {
    return { ok: false, message: excelTexts.excelQueueFailed };
  }
  const registered = await registerUpload({
    originalName: file.name,
    key,
    bucket: target.bucket,
    user,
    target: "data",
    ...(dataClass === "hr" ? { dataClass: { dataClass: "hr", by: "hr-round-trip" } as const } : {}),
  });
  return registered.ok ? { ok: true, id: registered.id } : { ok: false, message: excelTexts.excelQueueFailed };
}

/**
 * What the screen's Excel panel shows for its URL: the report of `?excel=<id>`, or the progress of `?excelJob=<id>`.
 * A job that ended with a report sends the user to it (a redirect to the report's screen); one that failed shows
 * its message.
 */
export async function excelPanelState(
  params: URLSearchParams,
  user: string,
  dataset: string,
): Promise<Pick<ExcelPanelData, "report" | "job">> {
  const jobId = params.get(EXCEL_JOB_PARAM);
  if (jobId) {
    const job = await ownJobState(jobId, user);
    // The path the worker recorded is one of the portal's screens; anything else is not followed.
    const local = job?.resultPath?.startsWith("/") && !job.resultPath.startsWith("//") ? job.resultPath : null;
    if (job?.status === FILE_STATUS_OK && job.progress >= FILE_PROGRESS_DONE && local) throw redirect(local);
    if (job) {
      const done = job.progress >= FILE_PROGRESS_DONE || job.status !== FILE_STATUS_OK;
      return {
        report: null,
        job: done
          ? { running: false, progress: job.progress, message: job.message || excelTexts.excelJobFailed }
          : { running: true, progress: job.progress, message: excelTexts.excelJobRunning(job.progress) },
      };
    }
  }
  return { report: await excelReportView(params.get(EXCEL_REPORT_PARAM), user, dataset), job: null };
}

/**
 * For a grid's Excel route: a file past EXCEL_IMPORT_INLINE_MAX_BYTES is queued and the sender goes back to `screen`
 * following its job; null for a file to apply in the request. `dataClass`: its round trip's (queueReturnedFile).
 */
export async function queuedImportRedirect(
  file: { bytes: Buffer; name: string },
  user: string,
  screen: string,
  dataClass?: FileDataClass,
): Promise<Response | null> {
  if (!appliesInJob(file.bytes.length)) return null;
  const queued = await queueReturnedFile(file, user, dataClass);
  if (!queued.ok) return redirectWithToast(screen, { type: "error", description: queued.message });
  const url = new URL(screen, "http://portal.invalid");
  url.searchParams.delete(EXCEL_REPORT_PARAM);
  url.searchParams.set(EXCEL_JOB_PARAM, queued.id);
  return redirectWithToast(`${url.pathname}${url.search}`, { type: "info", description: excelTexts.excelQueued });
}
