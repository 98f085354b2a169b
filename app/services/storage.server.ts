import path from "node:path";
import type { Readable } from "node:stream";
import { getConfig } from "~/config.server";
import { LocalObjectStore, StoredObjectNotFoundError } from "./storage/local.server";
import { S3ObjectStore } from "./storage/s3.server";
import { DOWNLOAD_LINK_TTL_MS, signDownloadToken } from "./storage/signed-link.server";

/**
 * Where uploaded files live. Two stores behind one set of functions:
 * - local (default): DATA_DIR/uploads, uploads streamed by /api/upload, downloads through
 *   HMAC-signed /download/{token} links;
 * - s3: the private bucket S3_BUCKET, the browser uploads with presigned URLs (or, without
 *   JavaScript, /api/upload streams the form to it in parts), downloads are presigned GETs. New
 *   objects carry the tag pending=1 until they are registered (see markRegistered).
 * A file record's `bucket` says which store holds it ("local" for the local store), so records
 * from both stores can coexist after a switch.
 */

export {
  assertUploadAllowed,
  extensionOf,
  generateStorageKey,
  isStorageKey,
  UploadRejectedError,
} from "./storage/keys.server";
export type { LocalObjectStore } from "./storage/local.server";
export { StorageKeyError, StoredObjectNotFoundError } from "./storage/local.server";
export type { S3ObjectStore } from "./storage/s3.server";
export { verifyDownloadToken } from "./storage/signed-link.server";

/** The `bucket` value of files kept by the local store. */
export const LOCAL_BUCKET = "local";

export function uploadLimits(): { maxBytes: number; extensions: readonly string[] } {
  const { storage } = getConfig();
  return { maxBytes: storage.maxBytes, extensions: storage.extensions };
}

export function localUploadRoot(): string {
  return path.resolve(getConfig().dataDir, "uploads");
}

export function getLocalStore(): LocalObjectStore {
  return new LocalObjectStore(localUploadRoot());
}

const s3Stores = new Map<string, S3ObjectStore>();

export function getS3Store(bucket?: string): S3ObjectStore {
  const config = getConfig();
  const name = bucket ?? config.storage.bucket;
  const { endpoint, publicEndpoint, forcePathStyle, objectTagging } = config.storage.s3;
  const cacheKey = JSON.stringify([config.awsRegion, name, endpoint, publicEndpoint, forcePathStyle, objectTagging]);
  let store = s3Stores.get(cacheKey);
  if (!store) {
    store = new S3ObjectStore(name, {
      region: config.awsRegion,
      endpoint,
      publicEndpoint,
      forcePathStyle,
      objectTagging,
    });
    s3Stores.set(cacheKey, store);
  }
  return store;
}

/** Tests change credentials between cases; the next call builds new clients from the environment. */
export function forgetS3StoresForTests(): void {
  s3Stores.clear();
}

/** The bucket name new uploads get with the configured store. */
export function currentBucket(): string {
  const { storage } = getConfig();
  return storage.kind === "s3" ? storage.bucket : LOCAL_BUCKET;
}

/** A link that downloads the object under `filename`, valid for 5 minutes. */
export async function getDownloadUrl(bucket: string, key: string, filename: string, now = Date.now()): Promise<string> {
  if (bucket === LOCAL_BUCKET) return portalDownloadUrl(bucket, key, filename, now);
  return getS3Store(bucket).getDownloadUrl(key, filename);
}

/**
 * The portal's own link to the object (`/download/{token}`, 5 minutes), for either store: what the route that answers
 * it hands out can differ from the stored bytes (an HR file leaves scoped and masked), which a presigned GET cannot.
 */
export function portalDownloadUrl(bucket: string, key: string, filename: string, now = Date.now()): string {
  if (bucket === LOCAL_BUCKET) getLocalStore().resolve(key); // refuses keys outside the store before a link is issued
  const token = signDownloadToken(
    { bucket, key, filename, expiresAt: now + DOWNLOAD_LINK_TTL_MS },
    getConfig().session.secret,
  );
  return `/download/${token}`;
}

/** The worker's read side, for both stores. */
export async function openReadStream(bucket: string, key: string): Promise<{ stream: Readable; size: number }> {
  return bucket === LOCAL_BUCKET ? getLocalStore().openReadStream(key) : getS3Store(bucket).openReadStream(key);
}

export async function deleteObject(bucket: string, key: string): Promise<void> {
  if (bucket === LOCAL_BUCKET) await getLocalStore().delete(key);
  else await getS3Store(bucket).delete(key);
}

/** The stored size in bytes (HeadObject on S3); StoredObjectNotFoundError when it is not there. */
export async function objectSize(bucket: string, key: string): Promise<number> {
  return bucket === LOCAL_BUCKET ? getLocalStore().size(key) : getS3Store(bucket).size(key);
}

/**
 * Marks a stored object as registered: on S3 its pending tag is removed so the lifecycle rule on
 * that tag no longer expires it. The local store needs nothing (its sweeper checks the records).
 */
export async function markRegistered(bucket: string, key: string): Promise<void> {
  if (bucket !== LOCAL_BUCKET) await getS3Store(bucket).clearPendingTag(key);
}

/** The address recorded as `urlPath` on imported rows: the stored key locally, the s3:// URL on S3. */
export function objectUrlPath(bucket: string, key: string): string {
  return bucket === LOCAL_BUCKET ? key : `s3://${bucket}/${key}`;
}

/** The stored object an imported row's `urlPath` names (the inverse of objectUrlPath). */
export function parseObjectUrlPath(urlPath: string): { bucket: string; key: string } {
  const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(urlPath);
  return s3 ? { bucket: s3[1], key: s3[2] } : { bucket: LOCAL_BUCKET, key: urlPath };
}

/** Whether the stored object is there; "error" when the store could not say. */
export async function storedObjectState(bucket: string, key: string): Promise<"present" | "missing" | "error"> {
  try {
    if (bucket === LOCAL_BUCKET) return (await getLocalStore().exists(key)) ? "present" : "missing";
    await getS3Store(bucket).size(key);
    return "present";
  } catch (error) {
    return error instanceof StoredObjectNotFoundError ? "missing" : "error";
  }
}
