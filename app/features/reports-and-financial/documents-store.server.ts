import { Readable } from "node:stream";
import {
  currentBucket,
  getLocalStore,
  getS3Store,
  LOCAL_BUCKET,
  type LocalObjectStore,
  objectUrlPath,
} from "~/services/storage.server";

/**
 * Documents the portal writes and reads itself (seeded files, financial statements, cockpit attachments,
 * fiscal worksheets), through the configured storage provider: the local store (DATA_DIR/uploads) or the S3
 * bucket. Their keys live under prefixes of their own (`documents/…`, `seed/…`), never the upload keys'
 * `yyyy/mm/uuid.ext`, so the upload sweeper leaves them alone.
 */

/** The largest document the viewer reads into memory to convert. */
export const VIEWER_MAX_BYTES = 20 * 1024 * 1024;

export type DocumentSink = {
  bucket: string;
  put: (key: string, bytes: Buffer, contentType: string) => Promise<void>;
  /** Stores at `key` the bytes already stored at `sourceKey`, without sending them again (where the store can). */
  putCopy?: (sourceKey: string, key: string) => Promise<void>;
  remove: (key: string) => Promise<void>;
};

function localSink(store: LocalObjectStore): DocumentSink {
  return {
    bucket: LOCAL_BUCKET,
    put: (key, bytes) => store.putBytes(key, bytes),
    putCopy: (sourceKey, key) => store.linkCopy(sourceKey, key),
    remove: (key) => store.delete(key),
  };
}

/**
 * Where new documents go: the configured store. `localRoot` (tests, the seed of a server started elsewhere)
 * names the local store's folder explicitly.
 */
export async function documentSink(options: { localRoot?: string; bucket?: string } = {}): Promise<DocumentSink> {
  const bucket = options.bucket ?? currentBucket();
  if (bucket === LOCAL_BUCKET) {
    if (!options.localRoot) return localSink(getLocalStore());
    const { LocalObjectStore: Store } = await import("~/services/storage/local.server");
    return localSink(new Store(options.localRoot));
  }
  const store = getS3Store(bucket);
  return {
    bucket,
    put: async (key, bytes, contentType) => {
      await store.putStream(key, Readable.from([bytes]), { maxBytes: Math.max(1, bytes.length), contentType });
      // Written by the portal itself: registered at once, so the bucket's lifecycle rule on pending uploads keeps it.
      await store.clearPendingTag(key);
    },
    remove: (key) => store.delete(key),
  };
}

export class DocumentTooLargeError extends Error {
  constructor() {
    super("document too large to view");
    this.name = "DocumentTooLargeError";
  }
}

/** The whole stored object (for the viewer); StoredObjectNotFoundError when it is gone. */
export async function readDocument(bucket: string, key: string, maxBytes = VIEWER_MAX_BYTES): Promise<Buffer> {
  const { stream, size } =
    bucket === LOCAL_BUCKET ? await getLocalStore().openReadStream(key) : await getS3Store(bucket).openReadStream(key);
  if (size > maxBytes) {
    stream.destroy();
    throw new DocumentTooLargeError();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      stream.destroy();
      throw new DocumentTooLargeError();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The `url` a stored document's record carries: its address in the store (as imported rows' urlPath). */
export function documentUrl(bucket: string, key: string): string {
  return objectUrlPath(bucket, key);
}

/** Content types of the documents the portal writes and shows. */
export const DOCUMENT_CONTENT_TYPES: Record<string, string> = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xls: "application/vnd.ms-excel",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pdf: "application/pdf",
  csv: "text/csv; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  zip: "application/zip",
  png: "image/png",
  jpg: "image/jpeg",
};

export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  return DOCUMENT_CONTENT_TYPES[ext] ?? "application/octet-stream";
}
