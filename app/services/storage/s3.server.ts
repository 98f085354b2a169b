import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { messages } from "~/messages";
import { componentLogger, errorFields } from "~/shared/logger.server";
import { tooLargeError, UploadRejectedError } from "./keys.server";
import { StoredObjectNotFoundError } from "./local.server";

/** Presigned URLs (PUT, parts, GET) live this long. */
export const S3_URL_TTL_SECONDS = 5 * 60;
/** Files up to this size go up in one presigned PUT; larger ones in parts of PART_SIZE. */
export const S3_SINGLE_PUT_MAX = 64 * 1024 * 1024;
export const S3_PART_SIZE = 64 * 1024 * 1024;
/** S3's own limit on parts per upload. */
const S3_MAX_PARTS = 10_000;
/**
 * Parts of a server-side (no-JavaScript) upload: S3's minimum part is 5 MiB; at most one part is
 * being read while the previous one is sent, so memory stays near two parts whatever the file size.
 */
export const S3_SERVER_PART_SIZE = 8 * 1024 * 1024;
/**
 * Every new object carries this tag until it is registered as a job; a bucket lifecycle rule on
 * the tag expires uploads nobody registered (lifecycle rules cannot select untagged objects).
 */
export const PENDING_TAGGING = "pending=1";

export type S3UploadPlan =
  | { mode: "single"; key: string; url: string; headers: Record<string, string> }
  | { mode: "multipart"; key: string; uploadId: string; partSize: number; partCount: number };

export type CompletedPart = { partNumber: number; etag: string };

/**
 * The AWS SDK is loaded on first use, so a deployment on the local store (the default) never loads it
 * (nor pays the web process's memory it takes).
 */
let sdkLoading: Promise<typeof import("@aws-sdk/client-s3")> | undefined;
const s3Sdk = () => (sdkLoading ??= import("@aws-sdk/client-s3"));
const presigner = () => import("@aws-sdk/s3-request-presigner");

/**
 * A command as the client's send and the presigner take it. The commands built here are the SDK's own, but each
 * one's input and output types make it not assignable to these wide types, so a built command is asserted to be one.
 */
type SendCommand = Parameters<S3Client["send"]>[0];
type PresignCommand = Parameters<typeof import("@aws-sdk/s3-request-presigner").getSignedUrl>[1];

const log = componentLogger("storage");

/** Where the bucket is and how it is addressed. */
export type S3StoreOptions = {
  region: string;
  /** An S3-compatible endpoint (MinIO, R2…) the server calls; unset = AWS S3 of the region. */
  endpoint?: string;
  /** The endpoint presigned URLs name, which the browser must reach; defaults to `endpoint`. */
  publicEndpoint?: string;
  /** endpoint/bucket/key instead of bucket.endpoint/key. */
  forcePathStyle?: boolean;
  /** Tag new objects pending=1 until registered (S3 supports it; s3rver, R2 and GCS refuse or ignore it). */
  objectTagging?: boolean;
};

/** The private bucket: the browser sends bytes straight to it with URLs this class signs. */
export class S3ObjectStore {
  private clientLoading?: Promise<S3Client>;
  private signerLoading?: Promise<S3Client>;
  private readonly options: S3StoreOptions;

  constructor(
    readonly bucket: string,
    options: S3StoreOptions | string,
  ) {
    this.options = typeof options === "string" ? { region: options } : options;
  }

  /** Whether new objects carry the pending tag. */
  get tagsObjects(): boolean {
    return this.options.objectTagging === true;
  }

  private makeClient(endpoint: string | undefined): Promise<S3Client> {
    return s3Sdk().then(
      // WHEN_REQUIRED keeps checksum parameters out of presigned URLs the browser could not satisfy.
      ({ S3Client }) =>
        new S3Client({
          region: this.options.region,
          ...(endpoint ? { endpoint } : {}),
          forcePathStyle: this.options.forcePathStyle === true,
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
        }),
    );
  }

  /** The client the server calls the bucket with. */
  private client(): Promise<S3Client> {
    this.clientLoading ??= this.makeClient(this.options.endpoint);
    return this.clientLoading;
  }

  /** The client that signs URLs for the browser: same credentials, the public endpoint. */
  private signer(): Promise<S3Client> {
    const publicEndpoint = this.options.publicEndpoint ?? this.options.endpoint;
    if (publicEndpoint === this.options.endpoint) return this.client();
    this.signerLoading ??= this.makeClient(publicEndpoint);
    return this.signerLoading;
  }

  /**
   * One call to the bucket. A failure is logged with its cause (the S3 error code, HTTP status, network
   * error) before it goes up, where callers answer the user with the spec's text and nothing more.
   */
  private async send<T>(
    operation: string,
    key: string,
    build: (sdk: typeof import("@aws-sdk/client-s3")) => unknown,
  ): Promise<T> {
    const sdk = await s3Sdk();
    try {
      return (await (await this.client()).send(build(sdk) as SendCommand)) as T;
    } catch (error) {
      (isNotFound(error) || isNotImplemented(error) ? log.warn : log.error)("s3 request failed", {
        operation,
        bucket: this.bucket,
        key,
        endpoint: this.options.endpoint ?? "aws",
        ...errorFields(error),
      });
      throw error;
    }
  }

  private async presign(
    operation: string,
    key: string,
    build: (sdk: typeof import("@aws-sdk/client-s3")) => unknown,
    options: { unhoistableHeaders?: Set<string> } = {},
  ): Promise<string> {
    try {
      return await (await presigner()).getSignedUrl(await this.signer(), build(await s3Sdk()) as PresignCommand, {
        expiresIn: S3_URL_TTL_SECONDS,
        ...options,
      });
    } catch (error) {
      log.error("s3 presign failed", { operation, bucket: this.bucket, key, ...errorFields(error) });
      throw error;
    }
  }

  private tagging(): { Tagging?: string } {
    return this.tagsObjects ? { Tagging: PENDING_TAGGING } : {};
  }

  async createUpload(input: { key: string; size: number; contentType?: string }): Promise<S3UploadPlan> {
    const contentType = input.contentType || "application/octet-stream";
    if (input.size <= S3_SINGLE_PUT_MAX) {
      // x-amz-tagging stays a signed header (not hoisted into the query), so the browser must send
      // exactly this tag; the signed content-length holds it to the declared size.
      const url = await this.presign(
        "PutObject",
        input.key,
        (sdk) =>
          new sdk.PutObjectCommand({
            Bucket: this.bucket,
            Key: input.key,
            ContentType: contentType,
            ContentLength: input.size,
            ...this.tagging(),
          }),
        this.tagsObjects ? { unhoistableHeaders: new Set(["x-amz-tagging"]) } : {},
      );
      const headers: Record<string, string> = { "Content-Type": contentType };
      if (this.tagsObjects) headers["x-amz-tagging"] = PENDING_TAGGING;
      return { mode: "single", key: input.key, url, headers };
    }
    const partSize = Math.max(S3_PART_SIZE, Math.ceil(input.size / S3_MAX_PARTS));
    const uploadId = await this.createMultipart(input.key, contentType);
    return { mode: "multipart", key: input.key, uploadId, partSize, partCount: Math.ceil(input.size / partSize) };
  }

  private async createMultipart(key: string, contentType: string): Promise<string> {
    const created = await this.send<{ UploadId?: string }>(
      "CreateMultipartUpload",
      key,
      (sdk) =>
        new sdk.CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          ContentType: contentType,
          ...this.tagging(),
        }),
    );
    if (!created.UploadId) throw new Error("S3 CreateMultipartUpload returned no UploadId");
    return created.UploadId;
  }

  async signParts(
    key: string,
    uploadId: string,
    partNumbers: number[],
  ): Promise<Array<{ partNumber: number; url: string }>> {
    return Promise.all(
      partNumbers.map(async (partNumber) => ({
        partNumber,
        url: await this.presign(
          "UploadPart",
          key,
          (sdk) =>
            new sdk.UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
        ),
      })),
    );
  }

  /** Every part S3 holds for the upload (ListParts, 1,000 a page). */
  async listParts(
    key: string,
    uploadId: string,
    pageSize = 1000,
  ): Promise<Array<{ partNumber: number; etag: string; size: number }>> {
    const parts: Array<{ partNumber: number; etag: string; size: number }> = [];
    let marker: string | undefined;
    for (let page = 0; page <= S3_MAX_PARTS / pageSize; page++) {
      const answer = await this.send<import("@aws-sdk/client-s3").ListPartsCommandOutput>(
        "ListParts",
        key,
        (sdk) =>
          new sdk.ListPartsCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumberMarker: marker,
            MaxParts: pageSize,
          }),
      );
      for (const p of answer.Parts ?? [])
        parts.push({ partNumber: p.PartNumber ?? 0, etag: p.ETag ?? "", size: p.Size ?? 0 });
      if (!answer.IsTruncated || answer.NextPartNumberMarker === undefined) break;
      marker = String(answer.NextPartNumberMarker);
    }
    return parts;
  }

  /**
   * Completes a browser's multipart upload after checking it against what the server planned:
   * the parts S3 actually holds (ListParts, not the browser's word) must be the ones named, their
   * numbers within the planned count, and their total within the size limit. Anything else aborts
   * the upload (its parts are deleted) and throws UploadRejectedError.
   */
  async completeUpload(
    key: string,
    uploadId: string,
    parts: CompletedPart[],
    rules: { maxBytes: number; partCount: number },
  ): Promise<{ bytes: number }> {
    let ordered: Array<{ partNumber: number; etag: string; size: number }>;
    try {
      ordered = verifyParts(await this.listParts(key, uploadId), parts, rules);
    } catch (error) {
      if (isNotImplemented(error)) return this.completeWithoutListParts(key, uploadId, parts, rules);
      if (error instanceof UploadRejectedError) await this.abortUpload(key, uploadId).catch(() => undefined);
      throw error;
    }
    await this.finishMultipart(key, uploadId, ordered);
    return { bytes: ordered.reduce((sum, p) => sum + p.size, 0) };
  }

  /**
   * For S3-compatible stores without ListParts (s3rver, some gateways): the named parts must be distinct and within
   * the planned count; the store checks their ETags when completing; the size limit is checked on the completed
   * object, which is deleted when it is over.
   */
  private async completeWithoutListParts(
    key: string,
    uploadId: string,
    parts: CompletedPart[],
    rules: { maxBytes: number; partCount: number },
  ): Promise<{ bytes: number }> {
    const numbers = parts.map((p) => p.partNumber);
    if (
      numbers.length === 0 ||
      new Set(numbers).size !== numbers.length ||
      numbers.some((n) => n < 1 || n > rules.partCount)
    ) {
      await this.abortUpload(key, uploadId).catch(() => undefined);
      throw new UploadRejectedError("parts", messages.uploadPartsMismatch);
    }
    await this.finishMultipart(
      key,
      uploadId,
      [...parts].sort((a, b) => a.partNumber - b.partNumber),
    );
    const bytes = await this.size(key);
    if (bytes > rules.maxBytes) {
      await this.delete(key).catch(() => undefined);
      throw tooLargeError(rules.maxBytes);
    }
    return { bytes };
  }

  private async finishMultipart(key: string, uploadId: string, parts: CompletedPart[]): Promise<void> {
    await this.send(
      "CompleteMultipartUpload",
      key,
      (sdk) =>
        new sdk.CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
    );
  }

  async abortUpload(key: string, uploadId: string): Promise<void> {
    await this.send(
      "AbortMultipartUpload",
      key,
      (sdk) => new sdk.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
    );
  }

  /** A 5-minute presigned GET that downloads under the original file name. */
  async getDownloadUrl(key: string, filename: string): Promise<string> {
    return this.presign(
      "GetObject",
      key,
      (sdk) =>
        new sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ResponseContentDisposition: contentDisposition(filename),
        }),
    );
  }

  async size(key: string): Promise<number> {
    try {
      const head = await this.send<{ ContentLength?: number }>(
        "HeadObject",
        key,
        (sdk) => new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) throw new StoredObjectNotFoundError(key);
      throw error;
    }
  }

  async openReadStream(key: string): Promise<{ stream: Readable; size: number }> {
    try {
      const object = await this.send<{ Body?: unknown; ContentLength?: number }>(
        "GetObject",
        key,
        (sdk) => new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      if (!object.Body) throw new StoredObjectNotFoundError(key);
      return { stream: object.Body as Readable, size: object.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) throw new StoredObjectNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.send("DeleteObject", key, (sdk) => new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Drops the pending tag once the object is registered, so the lifecycle rule keeps it (nothing to do without tags). */
  async clearPendingTag(key: string): Promise<void> {
    if (!this.tagsObjects) return;
    await this.send(
      "DeleteObjectTagging",
      key,
      (sdk) => new sdk.DeleteObjectTaggingCommand({ Bucket: this.bucket, Key: key }),
    );
  }

  /**
   * Streams bytes to `key` from the server (the no-JavaScript form): a file smaller than one part
   * goes up with one PutObject, a larger one as a multipart upload in parts of `partSize`, one part
   * sent while the next is read. More than maxBytes aborts the upload and throws; nothing is kept.
   * The object is tagged pending until it is registered, like a browser upload.
   */
  async putStream(
    key: string,
    source: AsyncIterable<Uint8Array>,
    options: { maxBytes: number; contentType?: string; partSize?: number },
  ): Promise<{ bytes: number }> {
    const contentType = options.contentType || "application/octet-stream";
    const partSize = Math.max(options.partSize ?? S3_SERVER_PART_SIZE, Math.ceil(options.maxBytes / S3_MAX_PARTS));
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];
    let sending: Promise<void> = Promise.resolve();
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let bytes = 0;
    const sendPart = async (body: Buffer) => {
      await sending; // one part in flight at a time
      uploadId ??= await this.createMultipart(key, contentType);
      const partNumber = parts.length + 1;
      parts.push({ partNumber, etag: "" });
      const id = uploadId;
      sending = this.send<{ ETag?: string }>(
        "UploadPart",
        key,
        (sdk) =>
          new sdk.UploadPartCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: id,
            PartNumber: partNumber,
            Body: body,
            ContentLength: body.length,
          }),
      ).then((answer) => {
        if (!answer.ETag) throw new Error("S3 UploadPart returned no ETag");
        parts[partNumber - 1].etag = answer.ETag;
      });
      sending.catch(() => undefined); // surfaced by the next await of `sending`
    };
    try {
      for await (const piece of source) {
        const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
        bytes += chunk.length;
        if (bytes > options.maxBytes) throw tooLargeError(options.maxBytes);
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= partSize) {
          const body = Buffer.concat(pending, pendingBytes);
          pending = [];
          pendingBytes = 0;
          await sendPart(body);
        }
      }
      const rest = Buffer.concat(pending, pendingBytes);
      pending = [];
      if (uploadId === undefined) {
        await this.send(
          "PutObject",
          key,
          (sdk) =>
            new sdk.PutObjectCommand({
              Bucket: this.bucket,
              Key: key,
              Body: rest,
              ContentLength: rest.length,
              ContentType: contentType,
              ...this.tagging(),
            }),
        );
        return { bytes };
      }
      if (rest.length > 0) await sendPart(rest);
      await sending;
      await this.finishMultipart(key, uploadId, parts);
      return { bytes };
    } catch (error) {
      await sending.catch(() => undefined);
      if (uploadId !== undefined) await this.abortUpload(key, uploadId).catch(() => undefined);
      const stream = source as { destroy?: () => void };
      if (typeof stream.destroy === "function") stream.destroy();
      throw error;
    }
  }
}

const unquote = (etag: string) => etag.replace(/^"|"$/g, "");

/** The parts to complete, in order, or UploadRejectedError (see completeUpload). */
function verifyParts(
  listed: Array<{ partNumber: number; etag: string; size: number }>,
  named: CompletedPart[],
  rules: { maxBytes: number; partCount: number },
): Array<{ partNumber: number; etag: string; size: number }> {
  const mismatch = () => new UploadRejectedError("parts", messages.uploadPartsMismatch);
  if (listed.some((p) => p.partNumber < 1 || p.partNumber > rules.partCount)) throw mismatch();
  const held = new Map(listed.map((p) => [p.partNumber, p]));
  const seen = new Set<number>();
  const ordered: Array<{ partNumber: number; etag: string; size: number }> = [];
  for (const part of [...named].sort((a, b) => a.partNumber - b.partNumber)) {
    const found = held.get(part.partNumber);
    if (!found || seen.has(part.partNumber) || unquote(found.etag) !== unquote(part.etag)) throw mismatch();
    seen.add(part.partNumber);
    ordered.push(found);
  }
  if (ordered.length === 0) throw mismatch();
  const total = ordered.reduce((sum, p) => sum + p.size, 0);
  if (total > rules.maxBytes) throw tooLargeError(rules.maxBytes);
  return ordered;
}

/** The store does not implement the operation (405 MethodNotAllowed, 501 NotImplemented). */
function isNotImplemented(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === "NotImplemented" ||
    e?.name === "MethodNotAllowed" ||
    e?.$metadata?.httpStatusCode === 405 ||
    e?.$metadata?.httpStatusCode === 501
  );
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
