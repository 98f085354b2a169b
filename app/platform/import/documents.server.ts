import { saveUploadedExplorerDocument } from "~/models/explorer.server";
import type { JobClaim, JobEnding } from "~/models/file-jobs.server";
import { FILE_STATUS_UNREADABLE, recordFileClass } from "~/models/file-jobs.server";
import { FILE_STATUS_OK, recordedFileClass } from "~/models/files.server";
import { extensionOf } from "~/services/storage.server";
import { ThreadBusyError, ThreadLimitError } from "~/shared/bounded-thread.server";
import {
  DocumentUnreadableError,
  extractDocumentText,
  isDocumentFormat,
  MAX_DOCUMENT_CHARS,
} from "./document-text.server";
import { classifyStoredObject } from "./hr-file-view.server";
import {
  LeaseLostError,
  megabytes,
  readWholeSource,
  SourceTooLargeError,
  startTargetJob,
  type TargetJobOptions,
} from "./target-job.server";
import { documentImportTexts as t } from "./texts";

/**
 * An explorer document uploaded through /captura/manual: its text is extracted (document-text.server.ts)
 * and indexed exactly as the seed's documents are (explorer.server.ts: title, body, source, category, date and the
 * search fields, plus the vocabulary), with the uploaded file kept in the store and named on the document so its
 * page offers it for download. Upserted by the file's original name: a second upload of "Ata.pdf" replaces the
 * document of the first (same address). The job ends with status 0 and what was indexed, or status 3 and why not;
 * nothing is indexed then. A file classified HR (file-class.server.ts) is never indexed: not every explorer reader
 * may read HR data, and the text would show to all of them.
 */

/** The largest document read into memory to extract its text (PDF.js needs the whole file). */
export const DOCUMENT_MAX_BYTES = 50 * 1024 * 1024;

/** The title of an uploaded document: its file name without the extension, "_" read as spaces. */
export function documentTitle(originalName: string): string {
  const base = originalName.split(/[\\/]/).pop() ?? originalName;
  const dot = base.lastIndexOf(".");
  const stem = (dot > 0 ? base.slice(0, dot) : base).replace(/_+/g, " ").replace(/\s+/g, " ").trim();
  return (stem || base).slice(0, 300);
}

/** Why a document past a limit of its reading thread (DOCUMENT_TEXT_LIMITS) was refused, naming the limit. */
function refusal(error: ThreadLimitError): string {
  if (error.limit === "inflated") return t.refusedInflated(megabytes(error.limits.maxInflatedBytes));
  if (error.limit === "memory") return t.refusedMemory(error.limits.heapMb);
  return t.refusedTime(Math.round(error.limits.timeoutMs / 1000));
}

/**
 * Why the document is not indexed for what it holds, or null. Its class was decided as the worker took the job
 * (classifyClaimedFile); a file left unclassified then (the store or the reading threads busy) is classified now, and
 * failing that the job can be retried. Checked after the text is read, whose refusals name the problem better.
 */
async function hrRefusal(claim: JobClaim): Promise<{ message: string; retryable: boolean } | null> {
  let found = await recordedFileClass(claim.id);
  if (!found) {
    try {
      const classified = await classifyStoredObject(claim.bucket, claim.originalFile);
      found = { dataClass: await recordFileClass(claim.id, classified), by: classified.by };
    } catch {
      return { message: t.hrUnverified, retryable: true };
    }
  }
  if (found.dataClass !== "hr") return null;
  return { message: found.by === "unreadable" ? t.hrUnreadable : t.hrRefused, retryable: false };
}

export async function ingestExplorerDocument(claim: JobClaim, options: TargetJobOptions): Promise<JobEnding> {
  const job = await startTargetJob(claim, options);
  const ext = extensionOf(claim.originalFile);
  if (!isDocumentFormat(ext)) return job.finish(FILE_STATUS_UNREADABLE, t.unsupported(ext));
  try {
    await job.beat(1, t.reading, true);
    let bytes: Buffer;
    try {
      bytes = await readWholeSource(claim, options, DOCUMENT_MAX_BYTES);
    } catch (error) {
      if (error instanceof SourceTooLargeError)
        return job.finish(FILE_STATUS_UNREADABLE, t.tooLarge(megabytes(error.maxBytes)));
      if ((error as Error).name === "StoredObjectNotFoundError") return job.finish(FILE_STATUS_UNREADABLE, t.missing);
      // Reading the stored bytes failed (the storage's fault, not the file's): a retry may succeed.
      return job.finish(FILE_STATUS_UNREADABLE, t.unreadable((error as Error).message), 0, 0, true);
    }
    await job.beat(10, t.reading);
    let extracted: Awaited<ReturnType<typeof extractDocumentText>>;
    try {
      extracted = await extractDocumentText(ext, bytes, async (done, total) =>
        job.beat(total ? 10 + (done / total) * 80 : 50, total ? t.readingPages(done, total) : t.reading),
      );
    } catch (error) {
      if (error instanceof LeaseLostError) throw error;
      if (error instanceof ThreadLimitError) return job.finish(FILE_STATUS_UNREADABLE, refusal(error));
      // Every reading thread taken for the longest wait: the same file can be read later.
      if (error instanceof ThreadBusyError) return job.finish(FILE_STATUS_UNREADABLE, error.message, 0, 0, true);
      return job.finish(
        FILE_STATUS_UNREADABLE,
        t.unreadable(error instanceof DocumentUnreadableError ? error.message : (error as Error).message),
      );
    }
    if (!/[\p{L}\p{N}]/u.test(extracted.text)) return job.finish(FILE_STATUS_UNREADABLE, t.noText);
    const hr = await hrRefusal(claim);
    if (hr) return job.finish(FILE_STATUS_UNREADABLE, hr.message, 0, 0, hr.retryable);
    await job.beat(95, t.reading, true);
    const title = documentTitle(claim.originalName);
    await job.beginApply();
    const saved = await saveUploadedExplorerDocument(
      {
        title,
        body: extracted.text,
        source: t.source,
        category: t.categories[ext] ?? ext.toUpperCase(),
        date: job.now(),
        originalName: claim.originalName,
        file: { bucket: claim.bucket, key: claim.originalFile, name: claim.originalName },
        sourceFileId: claim.id,
        user: claim.user,
      },
      job.db,
    );
    const message =
      (saved.replaced ? t.replaced : t.indexed)(title, saved.words) + (extracted.cut ? t.cut(MAX_DOCUMENT_CHARS) : "");
    return job.finish(FILE_STATUS_OK, message, 1, 0);
  } catch (error) {
    if (error instanceof LeaseLostError) return { kind: "lease-lost" };
    throw error;
  }
}
