import { http, HttpResponse } from "msw";

/**
 * A private S3 bucket in memory, answering the REST API shapes the AWS SDK uses (virtual-hosted
 * style, us-east-1): PutObject, GetObject, HeadObject, DeleteObject, CreateMultipartUpload,
 * UploadPart, CompleteMultipartUpload and AbortMultipartUpload. Requests are recorded so tests can
 * check what was called.
 */
export type FakeBucket = {
  name: string;
  objects: Map<string, Uint8Array>;
  uploads: Map<string, { key: string; parts: Map<number, Uint8Array> }>;
  requests: Array<{ method: string; key: string; query: string }>;
};

export function createFakeBucket(name = "test-bucket"): FakeBucket {
  return { name, objects: new Map(), uploads: new Map(), requests: [] };
}

const xml = (body: string, status = 200) =>
  new HttpResponse(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, { status, headers: { "Content-Type": "application/xml" } });

const notFound = (key: string) =>
  xml(`<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>${key}</Key></Error>`, 404);

function etagOf(bytes: Uint8Array): string {
  let h = 0;
  for (const b of bytes) h = (h * 31 + b) >>> 0;
  return `"${h.toString(16).padStart(8, "0")}"`;
}

export function s3Handlers(bucket: FakeBucket, region = "us-east-1") {
  const base = `https://${bucket.name}.s3.${region}.amazonaws.com`;
  return [
    http.all(`${base}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const key = decodeURIComponent(url.pathname.slice(1));
      const q = url.searchParams;
      bucket.requests.push({ method: request.method, key, query: url.search });

      if (request.method === "POST" && q.has("uploads")) {
        const uploadId = `upload-${bucket.uploads.size + 1}`;
        bucket.uploads.set(uploadId, { key, parts: new Map() });
        return xml(`<InitiateMultipartUploadResult><Bucket>${bucket.name}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`);
      }
      if (request.method === "PUT" && q.has("uploadId")) {
        const upload = bucket.uploads.get(q.get("uploadId")!);
        if (!upload) return xml("<Error><Code>NoSuchUpload</Code></Error>", 404);
        const bytes = new Uint8Array(await request.arrayBuffer());
        upload.parts.set(Number(q.get("partNumber")), bytes);
        return new HttpResponse(null, { status: 200, headers: { ETag: etagOf(bytes) } });
      }
      if (request.method === "POST" && q.has("uploadId")) {
        const uploadId = q.get("uploadId")!;
        const upload = bucket.uploads.get(uploadId);
        if (!upload) return xml("<Error><Code>NoSuchUpload</Code></Error>", 404);
        const body = await request.text();
        const numbers = [...body.matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        const chunks = numbers.map((n) => upload.parts.get(n) ?? new Uint8Array());
        const total = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
        let offset = 0;
        for (const c of chunks) {
          total.set(c, offset);
          offset += c.length;
        }
        bucket.objects.set(key, total);
        bucket.uploads.delete(uploadId);
        return xml(`<CompleteMultipartUploadResult><Location>${base}/${key}</Location><Bucket>${bucket.name}</Bucket><Key>${key}</Key><ETag>${etagOf(total)}</ETag></CompleteMultipartUploadResult>`);
      }
      if (request.method === "DELETE" && q.has("uploadId")) {
        bucket.uploads.delete(q.get("uploadId")!);
        return new HttpResponse(null, { status: 204 });
      }
      if (request.method === "PUT") {
        const bytes = new Uint8Array(await request.arrayBuffer());
        bucket.objects.set(key, bytes);
        return new HttpResponse(null, { status: 200, headers: { ETag: etagOf(bytes) } });
      }
      if (request.method === "GET" || request.method === "HEAD") {
        const bytes = bucket.objects.get(key);
        if (!bytes) return request.method === "HEAD" ? new HttpResponse(null, { status: 404 }) : notFound(key);
        const headers = { "Content-Length": String(bytes.length), "Content-Type": "application/octet-stream", ETag: etagOf(bytes), "Last-Modified": new Date().toUTCString() };
        return new HttpResponse(request.method === "HEAD" ? null : bytes, { status: 200, headers });
      }
      if (request.method === "DELETE") {
        bucket.objects.delete(key);
        return new HttpResponse(null, { status: 204 });
      }
      return xml("<Error><Code>NotImplemented</Code></Error>", 501);
    }),
  ];
}
