import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { StoredObjectNotFoundError } from "./local.server";

/** Presigned URLs (PUT, parts, GET) live this long. */
export const S3_URL_TTL_SECONDS = 5 * 60;
/** Files up to this size go up in one presigned PUT; larger ones in parts of PART_SIZE. */
export const S3_SINGLE_PUT_MAX = 64 * 1024 * 1024;
export const S3_PART_SIZE = 64 * 1024 * 1024;
/** S3's own limit on parts per upload. */
const S3_MAX_PARTS = 10_000;

export type S3UploadPlan =
  | { mode: "single"; key: string; url: string; headers: Record<string, string> }
  | { mode: "multipart"; key: string; uploadId: string; partSize: number; partCount: number };

export type CompletedPart = { partNumber: number; etag: string };

/** The private bucket: the browser sends bytes straight to it with URLs this class signs. */
export class S3ObjectStore {
  constructor(
    readonly bucket: string,
    private readonly client: S3Client,
  ) {}

  static create(bucket: string, region: string): S3ObjectStore {
    // WHEN_REQUIRED keeps checksum parameters out of presigned URLs the browser could not satisfy.
    return new S3ObjectStore(bucket, new S3Client({ region, requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" }));
  }

  async createUpload(input: { key: string; size: number; contentType?: string }): Promise<S3UploadPlan> {
    const contentType = input.contentType || "application/octet-stream";
    if (input.size <= S3_SINGLE_PUT_MAX) {
      const url = await getSignedUrl(
        this.client,
        new PutObjectCommand({ Bucket: this.bucket, Key: input.key, ContentType: contentType, ContentLength: input.size }),
        { expiresIn: S3_URL_TTL_SECONDS },
      );
      return { mode: "single", key: input.key, url, headers: { "Content-Type": contentType } };
    }
    const partSize = Math.max(S3_PART_SIZE, Math.ceil(input.size / S3_MAX_PARTS));
    const created = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: input.key, ContentType: contentType }),
    );
    if (!created.UploadId) throw new Error("S3 CreateMultipartUpload returned no UploadId");
    return { mode: "multipart", key: input.key, uploadId: created.UploadId, partSize, partCount: Math.ceil(input.size / partSize) };
  }

  async signParts(key: string, uploadId: string, partNumbers: number[]): Promise<Array<{ partNumber: number; url: string }>> {
    return Promise.all(
      partNumbers.map(async (partNumber) => ({
        partNumber,
        url: await getSignedUrl(
          this.client,
          new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
          { expiresIn: S3_URL_TTL_SECONDS },
        ),
      })),
    );
  }

  async completeUpload(key: string, uploadId: string, parts: CompletedPart[]): Promise<void> {
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: sorted.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      }),
    );
  }

  async abortUpload(key: string, uploadId: string): Promise<void> {
    await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
  }

  /** A 5-minute presigned GET that downloads under the original file name. */
  async getDownloadUrl(key: string, filename: string): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentDisposition: contentDisposition(filename) }),
      { expiresIn: S3_URL_TTL_SECONDS },
    );
  }

  async size(key: string): Promise<number> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) throw new StoredObjectNotFoundError(key);
      throw error;
    }
  }

  async openReadStream(key: string): Promise<{ stream: Readable; size: number }> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!object.Body) throw new StoredObjectNotFoundError(key);
      return { stream: object.Body as Readable, size: object.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) throw new StoredObjectNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
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
