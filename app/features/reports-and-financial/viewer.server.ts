import { createReadableStreamFromReadable, data } from "@remix-run/node";
import { contentTypeOf, DocumentTooLargeError } from "~/features/reports-and-financial/documents-store.server";
import { type ViewerContent, viewerContent } from "~/features/reports-and-financial/documents-viewer.server";
import { messages, reportsTexts as t } from "~/messages";
import { contentDisposition } from "~/services/storage/s3.server";
import { openReadStream, StoredObjectNotFoundError, storedObjectState } from "~/services/storage.server";
import { ThreadBusyError } from "~/shared/bounded-thread.server";
import { answerDownload } from "./download.server";

/** A report or statement record as stored (spec 001 §3): the object in the store, its name, and its online copy. */
export type StoredDocumentRecord = {
  _id?: unknown;
  bucket: string;
  originalFile: string;
  originalName: string;
  url?: string | null;
};

/** The record when it has an online copy; a record without `url` opens nothing (spec 001: the action is disabled). */
export function viewable<R extends StoredDocumentRecord>(record: R | null | undefined): R | null {
  return record?.url ? record : null;
}

const storedDocument = (record: StoredDocumentRecord) => ({
  bucket: record.bucket,
  key: record.originalFile,
  name: record.originalName,
});

/**
 * A viewer route's loader data: 404 without a viewable record, else its id and converted content. `signal`: the
 * page's request (given up, it leaves the line for a converting thread).
 */
export async function viewerPageData(record: StoredDocumentRecord | null, signal?: AbortSignal) {
  if (!record) throw data(t.viewerNotFound, { status: 404 });
  return { id: String(record._id), ...(await loadViewer(storedDocument(record), signal)) };
}

/** A viewer route's download (the page's Download button): the record's file, or the download failure. */
export function downloadRecord(record: StoredDocumentRecord | null, mode: "fetch" | "document") {
  return answerDownload(
    record ? { bucket: record.bucket, key: record.originalFile, filename: record.originalName } : null,
    mode,
  );
}

/** The bytes of a viewable record inline (the viewer's PDF frame); 404 otherwise. */
export function inlineRecordResponse(record: StoredDocumentRecord | null | undefined): Promise<Response> {
  const doc = viewable(record);
  return inlineDocumentResponse(doc ? storedDocument(doc) : null);
}

/** What a viewer page shows: the converted content, or why it cannot. */
export type ViewerResult = { name: string; content: ViewerContent | null; error: string | null };

/** Loads and converts a stored document for the portal's viewer; a missing or unreadable file is a message, never a 5xx. */
async function loadViewer(
  doc: { bucket: string; key: string; name: string },
  signal?: AbortSignal,
): Promise<ViewerResult> {
  try {
    const content = await viewerContent(doc.bucket, doc.key, signal);
    if (content.kind === "pdf" && (await storedObjectState(doc.bucket, doc.key)) !== "present") {
      return { name: doc.name, content: null, error: messages.downloadFailed };
    }
    return { name: doc.name, content, error: null };
  } catch (error) {
    if (error instanceof StoredObjectNotFoundError)
      return { name: doc.name, content: null, error: messages.downloadFailed };
    if (error instanceof DocumentTooLargeError) return { name: doc.name, content: null, error: t.viewerTooLarge };
    if (error instanceof ThreadBusyError) return { name: doc.name, content: null, error: error.message };
    return { name: doc.name, content: null, error: t.viewerFailed };
  }
}

/** The stored bytes shown inline (the PDF frame of the viewer), streamed; 404 without a record or when they are gone. */
async function inlineDocumentResponse(doc: { bucket: string; key: string; name: string } | null): Promise<Response> {
  try {
    if (!doc) throw new StoredObjectNotFoundError("");
    const { stream, size } = await openReadStream(doc.bucket, doc.key);
    return new Response(createReadableStreamFromReadable(stream), {
      headers: {
        "Content-Type": contentTypeOf(doc.key),
        "Content-Length": String(size),
        "Content-Disposition": contentDisposition(doc.name).replace(/^attachment/, "inline"),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch {
    return new Response(messages.downloadFailed, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
}
