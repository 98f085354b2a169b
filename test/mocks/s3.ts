import { HttpResponse, http } from "msw";

/**
 * A private S3 bucket in memory, answering the REST API shapes the AWS SDK and presigned URLs use
 * (virtual-hosted style): PutObject, GetObject, HeadObject, DeleteObject, CreateMultipartUpload,
 * UploadPart, ListParts, CompleteMultipartUpload, AbortMultipartUpload, and Get/Put/DeleteObjectTagging.
 * Like S3 it
 * - refuses a presigned URL used after X-Amz-Date + X-Amz-Expires (403 AccessDenied "Request has
 *   expired"), by the bucket's clock, which tests can move with `bucket.clockOffsetMs`;
 * - refuses a presigned request that lacks a header the URL signed (x-amz-tagging) or sends another
 *   value (403 SignatureDoesNotMatch);
 * - applies the x-amz-tagging of PutObject and CreateMultipartUpload to the stored object;
 * - refuses a completion naming a part it does not hold or with another ETag (400 InvalidPart).
 * Requests are recorded so tests can check what was called.
 */
export type FakePart = { bytes: Uint8Array; etag: string };
export type FakeBucket = {
  name: string;
  objects: Map<string, Uint8Array>;
  tags: Map<string, Record<string, string>>;
  uploads: Map<string, { key: string; parts: Map<number, FakePart>; tags: Record<string, string> }>;
  /** Every request; `bytes` is the body size of uploaded parts. */
  requests: Array<{ method: string; key: string; query: string; tagging: string | null; bytes?: number }>;
  /** Added to Date.now() when checking presigned URL expiry. */
  clockOffsetMs: number;
};

export function createFakeBucket(name = "test-bucket"): FakeBucket {
  return { name, objects: new Map(), tags: new Map(), uploads: new Map(), requests: [], clockOffsetMs: 0 };
}

const xml = (body: string, status = 200) =>
  new HttpResponse(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, {
    status,
    headers: { "Content-Type": "application/xml" },
  });

const s3Error = (status: number, code: string, message: string, extra = "") =>
  xml(
    `<Error><Code>${code}</Code><Message>${message}</Message>${extra}<RequestId>FAKE</RequestId><HostId>fake</HostId></Error>`,
    status,
  );

const notFound = (key: string) => s3Error(404, "NoSuchKey", "The specified key does not exist.", `<Key>${key}</Key>`);
const noSuchUpload = () => s3Error(404, "NoSuchUpload", "The specified upload does not exist.");

export function etagOf(bytes: Uint8Array): string {
  let h = 0;
  for (const b of bytes) h = (h * 31 + b) >>> 0;
  return `"${h.toString(16).padStart(8, "0")}"`;
}

/** "a=1&b=2" (the x-amz-tagging header's form) as a record. */
function parseTagging(value: string | null): Record<string, string> {
  return value ? Object.fromEntries(new URLSearchParams(value)) : {};
}

/** X-Amz-Date (yyyymmddThhmmssZ) as epoch milliseconds. */
function amzDate(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : Number.NaN;
}

/** A presigned request's problem, as S3 would answer it; null when it is fine or not presigned. */
function presignProblem(request: Request, q: URLSearchParams, bucket: FakeBucket): Response | null {
  const date = q.get("X-Amz-Date");
  const expires = q.get("X-Amz-Expires");
  if (!date || !expires) return null;
  const expiresAt = amzDate(date) + Number(expires) * 1000;
  const now = Date.now() + bucket.clockOffsetMs;
  if (!(now <= expiresAt)) {
    return s3Error(
      403,
      "AccessDenied",
      "Request has expired",
      `<X-Amz-Expires>${expires}</X-Amz-Expires><Expires>${new Date(expiresAt).toISOString()}</Expires><ServerTime>${new Date(now).toISOString()}</ServerTime>`,
    );
  }
  const signed = (q.get("X-Amz-SignedHeaders") ?? "").split(";");
  if (signed.includes("x-amz-tagging") && request.headers.get("x-amz-tagging") === null) {
    return s3Error(
      403,
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided.",
    );
  }
  if (!signed.includes("x-amz-tagging") && request.headers.get("x-amz-tagging") !== null) {
    // An unsigned x-amz-* header on a presigned request is refused by S3 as well.
    return s3Error(403, "AccessDenied", "There were headers present in the request which were not signed");
  }
  return null;
}

function tagSetXml(tags: Record<string, string>): string {
  return `<Tagging><TagSet>${Object.entries(tags)
    .map(([k, v]) => `<Tag><Key>${k}</Key><Value>${v}</Value></Tag>`)
    .join("")}</TagSet></Tagging>`;
}

export function s3Handlers(bucket: FakeBucket, region = "us-east-1") {
  const base = `https://${bucket.name}.s3.${region}.amazonaws.com`;
  return [
    http.all(`${base}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const key = decodeURIComponent(url.pathname.slice(1));
      const q = url.searchParams;
      const tagging = request.headers.get("x-amz-tagging");
      bucket.requests.push({ method: request.method, key, query: url.search, tagging });
      const problem = presignProblem(request, q, bucket);
      if (problem) return problem;

      if (q.has("tagging")) {
        if (!bucket.objects.has(key)) return notFound(key);
        if (request.method === "GET") return xml(tagSetXml(bucket.tags.get(key) ?? {}));
        if (request.method === "DELETE") {
          bucket.tags.delete(key);
          return new HttpResponse(null, { status: 204 });
        }
        if (request.method === "PUT") {
          const body = await request.text();
          const tags = Object.fromEntries(
            [...body.matchAll(/<Tag><Key>([^<]*)<\/Key><Value>([^<]*)<\/Value><\/Tag>/g)].map((m) => [m[1], m[2]]),
          );
          bucket.tags.set(key, tags);
          return new HttpResponse(null, { status: 200 });
        }
      }
      if (request.method === "POST" && q.has("uploads")) {
        const uploadId = `upload-${bucket.requests.length}-${bucket.uploads.size + 1}`;
        bucket.uploads.set(uploadId, { key, parts: new Map(), tags: parseTagging(tagging) });
        return xml(
          `<InitiateMultipartUploadResult><Bucket>${bucket.name}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
        );
      }
      if (request.method === "PUT" && q.has("uploadId")) {
        const upload = bucket.uploads.get(q.get("uploadId")!);
        if (!upload) return noSuchUpload();
        const bytes = new Uint8Array(await request.arrayBuffer());
        const etag = etagOf(bytes);
        bucket.requests[bucket.requests.length - 1].bytes = bytes.length;
        upload.parts.set(Number(q.get("partNumber")), { bytes, etag });
        return new HttpResponse(null, { status: 200, headers: { ETag: etag } });
      }
      if (request.method === "GET" && q.has("uploadId")) {
        const uploadId = q.get("uploadId")!;
        const upload = bucket.uploads.get(uploadId);
        if (!upload) return noSuchUpload();
        const maxParts = Math.min(1000, Number(q.get("max-parts") ?? 1000));
        const marker = Number(q.get("part-number-marker") ?? 0);
        const all = [...upload.parts.entries()].sort((a, b) => a[0] - b[0]).filter(([n]) => n > marker);
        const page = all.slice(0, maxParts);
        const truncated = all.length > page.length;
        const next = page.length > 0 ? page[page.length - 1][0] : marker;
        const partsXml = page
          .map(
            ([n, p]) =>
              `<Part><PartNumber>${n}</PartNumber><LastModified>${new Date().toISOString()}</LastModified><ETag>${p.etag}</ETag><Size>${p.bytes.length}</Size></Part>`,
          )
          .join("");
        return xml(
          `<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket.name}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId><StorageClass>STANDARD</StorageClass><PartNumberMarker>${marker}</PartNumberMarker><NextPartNumberMarker>${next}</NextPartNumberMarker><MaxParts>${maxParts}</MaxParts><IsTruncated>${truncated}</IsTruncated>${partsXml}</ListPartsResult>`,
        );
      }
      if (request.method === "POST" && q.has("uploadId")) {
        const uploadId = q.get("uploadId")!;
        const upload = bucket.uploads.get(uploadId);
        if (!upload) return noSuchUpload();
        const body = await request.text();
        const named = [...body.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
          number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1])?.[1]),
          etag: (/<ETag>([^<]*)<\/ETag>/.exec(m[1])?.[1] ?? "").replaceAll("&quot;", '"'),
        }));
        const chunks: Uint8Array[] = [];
        for (const part of named) {
          const held = upload.parts.get(part.number);
          if (!held || held.etag.replaceAll('"', "") !== part.etag.replaceAll('"', "")) {
            return s3Error(400, "InvalidPart", "One or more of the specified parts could not be found.");
          }
          chunks.push(held.bytes);
        }
        const total = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
        let offset = 0;
        for (const c of chunks) {
          total.set(c, offset);
          offset += c.length;
        }
        bucket.objects.set(key, total);
        if (Object.keys(upload.tags).length > 0) bucket.tags.set(key, upload.tags);
        else bucket.tags.delete(key);
        bucket.uploads.delete(uploadId);
        return xml(
          `<CompleteMultipartUploadResult><Location>${base}/${key}</Location><Bucket>${bucket.name}</Bucket><Key>${key}</Key><ETag>${etagOf(total)}</ETag></CompleteMultipartUploadResult>`,
        );
      }
      if (request.method === "DELETE" && q.has("uploadId")) {
        if (!bucket.uploads.delete(q.get("uploadId")!)) return noSuchUpload();
        return new HttpResponse(null, { status: 204 });
      }
      if (request.method === "PUT") {
        const bytes = new Uint8Array(await request.arrayBuffer());
        bucket.objects.set(key, bytes);
        const tags = parseTagging(tagging);
        if (Object.keys(tags).length > 0) bucket.tags.set(key, tags);
        else bucket.tags.delete(key);
        return new HttpResponse(null, { status: 200, headers: { ETag: etagOf(bytes) } });
      }
      if (request.method === "GET" || request.method === "HEAD") {
        const bytes = bucket.objects.get(key);
        if (!bytes) return request.method === "HEAD" ? new HttpResponse(null, { status: 404 }) : notFound(key);
        const headers = {
          "Content-Length": String(bytes.length),
          "Content-Type": "application/octet-stream",
          ETag: etagOf(bytes),
          "Last-Modified": new Date().toUTCString(),
        };
        return new HttpResponse(request.method === "HEAD" ? null : bytes, { status: 200, headers });
      }
      if (request.method === "DELETE") {
        bucket.objects.delete(key);
        bucket.tags.delete(key);
        return new HttpResponse(null, { status: 204 });
      }
      return s3Error(501, "NotImplemented", "A header you provided implies functionality that is not implemented.");
    }),
  ];
}
