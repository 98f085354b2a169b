import { createReadableStreamFromReadable } from "@remix-run/node";
import { messages, reportsTexts as t } from "~/messages";
import { contentTypeOf, DocumentTooLargeError } from "~/services/documents-store.server";
import { storedObjectState } from "~/services/storage.server";
import { viewerContent, type ViewerContent } from "~/services/documents-viewer.server";
import { openReadStream, StoredObjectNotFoundError } from "~/services/storage.server";
import { contentDisposition } from "~/services/storage/s3.server";

/** What a viewer page shows: the converted content, or why it cannot. */
export type ViewerResult = { name: string; content: ViewerContent | null; error: string | null };

/** Loads and converts a stored document for the portal's viewer; a missing or unreadable file is a message, never a 5xx. */
export async function loadViewer(doc: { bucket: string; key: string; name: string }): Promise<ViewerResult> {
  try {
    const content = await viewerContent(doc.bucket, doc.key);
    if (content.kind === "pdf" && (await storedObjectState(doc.bucket, doc.key)) !== "present") {
      return { name: doc.name, content: null, error: messages.downloadFailed };
    }
    return { name: doc.name, content, error: null };
  } catch (error) {
    if (error instanceof StoredObjectNotFoundError) return { name: doc.name, content: null, error: messages.downloadFailed };
    if (error instanceof DocumentTooLargeError) return { name: doc.name, content: null, error: t.viewerTooLarge };
    return { name: doc.name, content: null, error: t.viewerFailed };
  }
}

/** The stored bytes shown inline (the PDF frame of the viewer), streamed; 404 without a record or when they are gone. */
export async function inlineDocumentResponse(doc: { bucket: string; key: string; name: string } | null): Promise<Response> {
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
    return new Response(messages.downloadFailed, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
}
