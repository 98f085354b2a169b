import { json } from "@remix-run/node";
import { z } from "zod";
import { getConfig } from "~/config.server";
import { FileAlreadyRegisteredError, type RegisterFileInput, registerStoredObject } from "~/models/file-jobs.server";
import { DEFAULT_FILE_TARGET, FILE_TARGET_FIELD, FILE_TARGETS, type FileTarget } from "~/models/files.fields";
import { rejectionStatus, tooLargeError } from "~/services/storage/keys.server";
import { boundaryOf, readMultipart } from "~/services/storage/multipart.server";
import {
  assertUploadAllowed,
  deleteObject,
  generateStorageKey,
  getLocalStore,
  getS3Store,
  LOCAL_BUCKET,
  markRegistered,
  objectSize,
  StoredObjectNotFoundError,
  UploadRejectedError,
  uploadLimits,
} from "~/services/storage.server";
import { formatSize } from "~/shared/numbers";
import { uploadTexts } from "./texts";

export const UPLOAD_PAGE = "/captura/manual";
/**
 * Most files one form post may carry. With the per-file limit it bounds the whole body, so three
 * files of 1 GB pass while a body no allowed post could have is refused before it is read.
 */
export const MAX_FILES_PER_POST = 20;
/** Multipart framing around each file: boundary and part headers (the reader caps those at 16 KB). */
const PART_OVERHEAD = 16 * 1024 + 256;
/** Room for the form's other (small) fields. */
const BODY_SLACK = 64 * 1024;

/** The largest body a form post may declare: MAX_FILES_PER_POST files at the per-file limit. */
export function maxPostBytes(maxBytes: number): number {
  return MAX_FILES_PER_POST * (maxBytes + PART_OVERHEAD) + BODY_SLACK;
}

type Stored = { originalName: string; key: string; bytes: number };
/** `target`: the refusal is about the "Tipo de carga" field (the plain form post shows its detail as a toast). */
export type UploadFailure = { code: "COD.2" | "COD.3"; status: number; detail: string; field?: "target" };

/** The "Tipo de carga" of an upload: one of FILE_TARGETS; absent or empty → data (today's behaviour). */
export const fileTargetSchema = z.preprocess(
  (value) => (value === undefined || value === null || value === "" ? DEFAULT_FILE_TARGET : value),
  z.enum(FILE_TARGETS),
);

/** The target a request named, or the refusal (400, COD.2, a message naming the value) when it names none of them. */
export function parseFileTarget(
  value: unknown,
): { ok: true; target: FileTarget } | { ok: false; failure: UploadFailure } {
  const parsed = fileTargetSchema.safeParse(value);
  if (parsed.success) return { ok: true, target: parsed.data };
  return {
    ok: false,
    failure: {
      code: "COD.2",
      status: 400,
      detail: uploadTexts.invalidTarget(typeof value === "string" ? value : String(value)),
      field: "target",
    },
  };
}

/** The longest target value read from a form; anything longer is not a target (and is refused as such). */
const MAX_TARGET_FIELD_BYTES = 64;

/** A small text field of a multipart body, at most `max` bytes kept (the rest is drained); null past that. */
async function readSmallField(data: AsyncIterable<Buffer>, max: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of data) {
    bytes += chunk.length;
    if (bytes <= max) chunks.push(chunk);
  }
  return bytes > max ? null : Buffer.concat(chunks).toString("utf8").trim();
}

class TargetRefusedError extends Error {
  constructor(readonly failure: UploadFailure) {
    super(failure.detail);
    this.name = "TargetRefusedError";
  }
}

/** The JSON answer of a refused upload or registration: the spec's alert for its code, and why. */
export function uploadFailureResponse(failure: UploadFailure) {
  return json(
    { ok: false, code: failure.code, message: uploadTexts.uploadFailure(failure.code), detail: failure.detail },
    { status: failure.status },
  );
}

type Target = {
  bucket: string;
  put: (key: string, data: AsyncIterable<Uint8Array>, contentType?: string) => Promise<{ bytes: number }>;
};

/** Where a form upload's bytes go: DATA_DIR/uploads, or the bucket in bounded parts. */
export function uploadTarget(maxBytes: number): Target {
  if (getConfig().storage.kind === "s3") {
    const store = getS3Store();
    return {
      bucket: store.bucket,
      put: (key, data, contentType) => store.putStream(key, data, { maxBytes, contentType }),
    };
  }
  const store = getLocalStore();
  return { bucket: LOCAL_BUCKET, put: (key, data) => store.putStream(key, data, { maxBytes }) };
}

/**
 * Turns a stored object into a job, for both stores and both paths (form post and /newFile):
 * - verifySize (after a browser upload the server did not see): the object must exist (else COD.2)
 *   and be within the size limit (else it is deleted, COD.2);
 * - the pending tag is removed first, so a registered object is never expired by the lifecycle rule;
 * - a failed registration deletes the object (COD.3); a second registration of the same object
 *   is refused (COD.3, 409) and keeps it, since it belongs to the first job.
 */
export async function registerUpload(
  input: RegisterFileInput,
  options: { verifySize?: boolean } = {},
): Promise<{ ok: true; id: string } | { ok: false; failure: UploadFailure }> {
  const remove = () => deleteObject(input.bucket, input.key);
  const registrationFailed = {
    ok: false as const,
    failure: { code: "COD.3" as const, status: 500, detail: uploadTexts.uploadRegisterFailedFor(input.originalName) },
  };
  if (options.verifySize) {
    const { maxBytes } = uploadLimits();
    let size: number;
    try {
      size = await objectSize(input.bucket, input.key);
    } catch (error) {
      if (error instanceof StoredObjectNotFoundError)
        return { ok: false, failure: { code: "COD.2", status: 409, detail: uploadTexts.uploadObjectMissing } };
      return registrationFailed;
    }
    if (size > maxBytes) {
      await remove().catch(() => undefined);
      return { ok: false, failure: { code: "COD.2", status: 413, detail: tooLargeError(maxBytes).message } };
    }
  }
  try {
    await markRegistered(input.bucket, input.key);
  } catch {
    await remove().catch(() => undefined); // tagged pending, it would expire under a job
    return registrationFailed;
  }
  try {
    return { ok: true, id: String(await registerStoredObject(input, remove)) };
  } catch (error) {
    if (error instanceof FileAlreadyRegisteredError)
      return { ok: false, failure: { code: "COD.3", status: 409, detail: uploadTexts.uploadAlreadyRegistered } };
    return registrationFailed;
  }
}

/**
 * The form upload (field `files`, one or more), separate from the session so the benchmark and
 * tests can drive it. Each file is streamed to the configured store (never held whole in memory),
 * with the extension checked before a byte is kept and the per-file limit while streaming; the
 * body as a whole is capped by maxPostBytes. Then each file is registered.
 */
export async function handleUpload(
  request: Request,
  userEmail: string,
): Promise<
  { files: Array<{ id: string; originalName: string; key: string; bytes: number }> } | { failure: UploadFailure }
> {
  const limits = uploadLimits();
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxPostBytes(limits.maxBytes)) {
    return {
      failure: {
        code: "COD.2",
        status: 413,
        detail: uploadTexts.uploadPostTooLarge(MAX_FILES_PER_POST, formatSize(limits.maxBytes)),
      },
    };
  }
  const boundary = boundaryOf(request.headers.get("Content-Type"));
  if (!boundary || !request.body)
    return { failure: { code: "COD.2", status: 400, detail: uploadTexts.noFileSelected } };
  const target = uploadTarget(limits.maxBytes);
  const stored: Stored[] = [];
  let count = 0;
  // The "Tipo de carga": the form puts it before the files, so a bad value is refused before a byte is kept.
  let fileTarget: FileTarget = DEFAULT_FILE_TARGET;
  try {
    for await (const part of readMultipart(request.body as unknown as AsyncIterable<Uint8Array>, boundary)) {
      if (part.name === FILE_TARGET_FIELD && !part.filename) {
        const text = await readSmallField(part.data, MAX_TARGET_FIELD_BYTES);
        const parsed = parseFileTarget(text ?? "(valor longo demais)");
        if (!parsed.ok) throw new TargetRefusedError(parsed.failure);
        fileTarget = parsed.target;
        continue;
      }
      if (part.name !== "files" || !part.filename) continue; // other fields are skipped (and drained)
      if (++count > MAX_FILES_PER_POST)
        throw new UploadRejectedError("count", uploadTexts.uploadTooManyFiles(MAX_FILES_PER_POST));
      assertUploadAllowed(part.filename, undefined, limits); // before a single byte is written
      const key = generateStorageKey(part.filename);
      const { bytes } = await target.put(key, part.data, part.contentType);
      stored.push({ originalName: part.filename.split(/[\\/]/).pop() ?? part.filename, key, bytes });
    }
  } catch (error) {
    await Promise.all(stored.map((s) => deleteObject(target.bucket, s.key).catch(() => undefined)));
    if (error instanceof TargetRefusedError) return { failure: error.failure };
    return { failure: transferFailure(error) };
  }
  if (stored.length === 0) return { failure: { code: "COD.2", status: 400, detail: uploadTexts.noFileSelected } };

  const files: Array<{ id: string; originalName: string; key: string; bytes: number }> = [];
  for (let i = 0; i < stored.length; i++) {
    const s = stored[i];
    const registered = await registerUpload({
      originalName: s.originalName,
      key: s.key,
      bucket: target.bucket,
      user: userEmail,
      target: fileTarget,
    });
    if (!registered.ok) {
      // The failed one was removed by registerUpload; the ones not yet registered go too.
      await Promise.all(
        stored.slice(i + 1).map((rest) => deleteObject(target.bucket, rest.key).catch(() => undefined)),
      );
      return { failure: registered.failure };
    }
    files.push({ id: registered.id, originalName: s.originalName, key: s.key, bytes: s.bytes });
  }
  return { files };
}

/** Why a transfer did not keep the file (COD.2): a refused name or size as such, anything else a broken stream. */
function transferFailure(error: unknown): UploadFailure {
  if (error instanceof UploadRejectedError)
    return { code: "COD.2", status: rejectionStatus(error), detail: error.message };
  return { code: "COD.2", status: 400, detail: uploadTexts.uploadTransferBroken };
}

/**
 * One file sent as a request's whole body (the API's `POST /api/v1/uploads`): the same allow-list, per-file limit,
 * store and registration as a form upload, streamed, never held whole. `dataset` is the template the file must be.
 */
export async function handleSingleFileUpload(input: {
  body: AsyncIterable<Uint8Array>;
  fileName: string;
  contentType: string;
  declaredBytes: number | undefined;
  user: string;
  dataset: string;
}): Promise<{ file: { id: string; originalName: string; bytes: number } } | { failure: UploadFailure }> {
  const limits = uploadLimits();
  try {
    assertUploadAllowed(input.fileName, input.declaredBytes, limits);
  } catch (error) {
    if (error instanceof UploadRejectedError) return { failure: transferFailure(error) };
    throw error;
  }
  const target = uploadTarget(limits.maxBytes);
  const key = generateStorageKey(input.fileName);
  let bytes: number;
  try {
    ({ bytes } = await target.put(key, input.body, input.contentType));
  } catch (error) {
    await deleteObject(target.bucket, key).catch(() => undefined);
    return { failure: transferFailure(error) };
  }
  const registered = await registerUpload({
    originalName: input.fileName,
    key,
    bucket: target.bucket,
    user: input.user,
    dataset: input.dataset,
  });
  if (!registered.ok) return { failure: registered.failure };
  return { file: { id: registered.id, originalName: input.fileName, bytes } };
}
