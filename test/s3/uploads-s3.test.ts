import { ObjectId } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { findFileById } from "~/models/file-jobs.server";
import { handleUpload } from "~/platform/import/upload.server";
import { S3_SERVER_PART_SIZE, S3_SINGLE_PUT_MAX, S3_URL_TTL_SECONDS } from "~/services/storage/s3.server";
import { generateStorageKey, getDownloadUrl, getS3Store } from "~/services/storage.server";
import { useTestDatabase } from "../db";
import { useEnv } from "../env";
import { useMockServer } from "../mocks";
import { createFakeBucket, s3Handlers } from "../mocks/s3";

const env = {
  STORAGE: "s3",
  S3_BUCKET: "test-bucket",
  S3_OBJECT_TAGGING: "1",
  AWS_REGION: "us-east-1",
  AWS_ACCESS_KEY_ID: "AKIAFAKEFAKEFAKE",
  AWS_SECRET_ACCESS_KEY: "fake/secret/key",
  AWS_SESSION_TOKEN: undefined,
};
useEnv(env);

useTestDatabase();
const server = useMockServer();
const bucket = createFakeBucket("test-bucket");
beforeAll(() => server.use(...s3Handlers(bucket)));

describe("S3 store", () => {
  it("issues a presigned PUT for a small file that tags the object pending with a signed header", async () => {
    server.use(...s3Handlers(bucket));
    const key = generateStorageKey("small.csv");
    const plan = await getS3Store().createUpload({ key, size: 4, contentType: "text/csv" });
    expect(plan.mode).toBe("single");
    if (plan.mode !== "single") return;
    const url = new URL(plan.url);
    expect(url.host).toBe("test-bucket.s3.us-east-1.amazonaws.com");
    expect(decodeURIComponent(url.pathname.slice(1))).toBe(key);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(url.searchParams.get("X-Amz-Credential")).toContain("AKIAFAKEFAKEFAKE");
    // The tag is a signed header the browser must send, not a query parameter it could drop.
    expect(url.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toEqual(
      expect.arrayContaining(["host", "x-amz-tagging", "content-length"]),
    );
    expect(url.searchParams.has("x-amz-tagging")).toBe(false);
    expect(plan.headers).toEqual({ "Content-Type": "text/csv", "x-amz-tagging": "pending=1" });

    // The browser's PUT, played against the fake bucket: without the tag header it is refused.
    const untagged = await fetch(plan.url, { method: "PUT", body: "a;b\n", headers: { "Content-Type": "text/csv" } });
    expect(untagged.status).toBe(403);
    expect(bucket.objects.has(key)).toBe(false);
    const put = await fetch(plan.url, { method: "PUT", body: "a;b\n", headers: plan.headers });
    expect(put.status).toBe(200);
    expect(new TextDecoder().decode(bucket.objects.get(key))).toBe("a;b\n");
    expect(bucket.tags.get(key)).toEqual({ pending: "1" });

    // Registration removes the tag (DeleteObjectTagging), so the lifecycle rule no longer expires it.
    await getS3Store().clearPendingTag(key);
    expect(bucket.tags.has(key)).toBe(false);
    expect(bucket.requests.at(-1)).toMatchObject({ method: "DELETE", key, query: expect.stringContaining("tagging") });
  });

  it("refuses a presigned URL used after its 5 minutes, as S3 does", async () => {
    server.use(...s3Handlers(bucket));
    const key = generateStorageKey("late.csv");
    const plan = await getS3Store().createUpload({ key, size: 4 });
    if (plan.mode !== "single") throw new Error("expected single");
    bucket.clockOffsetMs = (S3_URL_TTL_SECONDS + 1) * 1000;
    try {
      const late = await fetch(plan.url, { method: "PUT", body: "late", headers: plan.headers });
      expect(late.status).toBe(403);
      expect(await late.text()).toContain("<Message>Request has expired</Message>");
    } finally {
      bucket.clockOffsetMs = 0;
    }
    expect(bucket.objects.has(key)).toBe(false);
  });

  it("runs a multipart upload: create, presigned part URLs, complete, and abort", async () => {
    server.use(...s3Handlers(bucket));
    const store = getS3Store();
    const key = generateStorageKey("big.csv");
    const plan = await store.createUpload({ key, size: S3_SINGLE_PUT_MAX * 2 + 10 });
    expect(plan).toMatchObject({ mode: "multipart", key, partCount: 3, uploadId: expect.stringMatching(/^upload-/) });
    if (plan.mode !== "multipart") return;
    const parts = await store.signParts(key, plan.uploadId, [1, 2]);
    const etags: Array<{ partNumber: number; etag: string }> = [];
    for (const part of parts) {
      const url = new URL(part.url);
      expect(url.searchParams.get("partNumber")).toBe(String(part.partNumber));
      expect(url.searchParams.get("uploadId")).toBe(plan.uploadId);
      expect(url.searchParams.has("X-Amz-Signature")).toBe(true);
      const response = await fetch(part.url, { method: "PUT", body: `part-${part.partNumber};` });
      etags.push({ partNumber: part.partNumber, etag: response.headers.get("ETag")! });
    }
    expect(
      await store.completeUpload(key, plan.uploadId, etags.reverse(), { maxBytes: 1000, partCount: plan.partCount }),
    ).toEqual({ bytes: 14 });
    expect(new TextDecoder().decode(bucket.objects.get(key))).toBe("part-1;part-2;");
    // CreateMultipartUpload carried the pending tag; the completed object has it.
    expect(
      bucket.requests.find((r) => r.method === "POST" && r.query.includes("uploads") && r.key === key)?.tagging,
    ).toBe("pending=1");
    expect(bucket.tags.get(key)).toEqual({ pending: "1" });

    const other = await store.createUpload({ key: generateStorageKey("c.csv"), size: S3_SINGLE_PUT_MAX + 1 });
    if (other.mode !== "multipart") throw new Error("expected multipart");
    await store.abortUpload(other.key, other.uploadId);
    expect(bucket.uploads.has(other.uploadId)).toBe(false);
    expect(bucket.requests.some((r) => r.method === "DELETE" && r.query.includes(`uploadId=${other.uploadId}`))).toBe(
      true,
    );
  });

  it("issues a 5-minute presigned GET that downloads under the original name", async () => {
    const key = generateStorageKey("Relatório.csv");
    const url = new URL(await getDownloadUrl("test-bucket", key, "Relatório.csv"));
    expect(url.host).toBe("test-bucket.s3.us-east-1.amazonaws.com");
    expect(decodeURIComponent(url.pathname.slice(1))).toBe(key);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(url.searchParams.get("response-content-disposition")).toBe(
      `attachment; filename="Relat_rio.csv"; filename*=UTF-8''Relat%C3%B3rio.csv`,
    );
  });
});

describe("completing a browser's multipart upload", () => {
  beforeEach(() => server.use(...s3Handlers(bucket)));

  /** A multipart upload planned for `partCount` parts, with the given parts sent (number → size). */
  async function sendParts(partCount: number, sizes: Record<number, number>) {
    const store = getS3Store();
    const key = generateStorageKey("parts.csv");
    const plan = await store.createUpload({ key, size: S3_SINGLE_PUT_MAX * (partCount - 1) + 1 });
    if (plan.mode !== "multipart") throw new Error("expected multipart");
    expect(plan.partCount).toBe(partCount);
    const parts: Array<{ partNumber: number; etag: string }> = [];
    for (const p of await store.signParts(key, plan.uploadId, Object.keys(sizes).map(Number))) {
      const response = await fetch(p.url, { method: "PUT", body: "x".repeat(sizes[p.partNumber]) });
      parts.push({ partNumber: p.partNumber, etag: response.headers.get("ETag")! });
    }
    return { store, key, uploadId: plan.uploadId, parts };
  }

  it("totals the sizes S3 lists (ListParts) and aborts an upload over the limit", async () => {
    const { store, key, uploadId, parts } = await sendParts(2, { 1: 600, 2: 500 });
    await expect(store.completeUpload(key, uploadId, parts, { maxBytes: 1000, partCount: 2 })).rejects.toMatchObject({
      reason: "size",
      message: "Arquivo maior que o limite de 1.000 bytes.",
    });
    expect(bucket.requests.some((r) => r.method === "GET" && r.query.includes(`uploadId=${uploadId}`))).toBe(true);
    expect(bucket.uploads.has(uploadId)).toBe(false); // aborted: its parts are gone
    expect(bucket.objects.has(key)).toBe(false);
  });

  it("refuses and aborts parts beyond the planned count, parts S3 does not hold, and changed ETags", async () => {
    const rules = { maxBytes: 10_000, partCount: 2 };
    const extra = await sendParts(2, { 1: 10, 2: 10, 3: 10 });
    await expect(
      extra.store.completeUpload(extra.key, extra.uploadId, extra.parts.slice(0, 2), rules),
    ).rejects.toMatchObject({ reason: "parts" });
    expect(bucket.uploads.has(extra.uploadId)).toBe(false);

    const missing = await sendParts(2, { 1: 10 });
    await expect(
      missing.store.completeUpload(
        missing.key,
        missing.uploadId,
        [...missing.parts, { partNumber: 2, etag: '"00000000"' }],
        rules,
      ),
    ).rejects.toMatchObject({ reason: "parts" });
    expect(bucket.uploads.has(missing.uploadId)).toBe(false);

    const changed = await sendParts(2, { 1: 10, 2: 10 });
    await expect(
      changed.store.completeUpload(
        changed.key,
        changed.uploadId,
        [changed.parts[0], { partNumber: 2, etag: '"ffffffff"' }],
        rules,
      ),
    ).rejects.toMatchObject({ reason: "parts" });
    expect(bucket.uploads.has(changed.uploadId)).toBe(false);
    expect(bucket.objects.has(changed.key)).toBe(false);
  });

  it("reads every page of ListParts", async () => {
    const { store, key, uploadId } = await sendParts(5, { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5 });
    const before = bucket.requests.length;
    expect(await store.listParts(key, uploadId, 2)).toEqual(
      [1, 2, 3, 4, 5].map((n) => ({ partNumber: n, etag: expect.stringMatching(/^"[0-9a-f]{8}"$/), size: n })),
    );
    expect(bucket.requests.slice(before).map((r) => new URLSearchParams(r.query).get("part-number-marker"))).toEqual([
      null,
      "2",
      "4",
    ]);
    await store.abortUpload(key, uploadId);
  });
});

describe("server-side streaming to the bucket (the no-JavaScript form on S3)", () => {
  beforeEach(() => server.use(...s3Handlers(bucket)));
  const CHUNK = 64 * 1024;
  // Small parts keep the test quick; the real size must respect S3's 5 MiB minimum for all parts but the last.
  const PART = 4 * CHUNK;
  it("uses parts S3 accepts", () => expect(S3_SERVER_PART_SIZE).toBeGreaterThanOrEqual(5 * 1024 * 1024));

  async function* bytes(total: number, onLastChunk?: () => void) {
    for (let sent = 0; sent < total; sent += CHUNK) {
      if (sent + CHUNK >= total) onLastChunk?.();
      yield Buffer.alloc(Math.min(CHUNK, total - sent), (sent / CHUNK) % 251);
    }
  }
  const partRequests = (key: string) =>
    bucket.requests.filter((r) => r.method === "PUT" && r.key === key && r.query.includes("partNumber="));

  it("sends a file smaller than a part with one PutObject, tagged pending", async () => {
    const key = generateStorageKey("small.csv");
    expect(await getS3Store().putStream(key, bytes(1000), { maxBytes: 5000, contentType: "text/csv" })).toEqual({
      bytes: 1000,
    });
    expect(bucket.objects.get(key)?.length).toBe(1000);
    expect(bucket.tags.get(key)).toEqual({ pending: "1" });
    expect(partRequests(key)).toHaveLength(0);
  });

  it("sends a large file as a multipart upload in bounded parts while it is still arriving", async () => {
    const key = generateStorageKey("large.csv");
    const total = 2 * PART + 3 * CHUNK;
    let partsSentBeforeTheEnd = -1;
    const { bytes: stored } = await getS3Store().putStream(
      key,
      bytes(total, () => (partsSentBeforeTheEnd = partRequests(key).length)),
      { maxBytes: 10 * PART, partSize: PART },
    );
    expect(stored).toBe(total);
    // Parts left while the body was still being read: the file was never gathered whole.
    expect(partsSentBeforeTheEnd).toBeGreaterThanOrEqual(1);
    expect(partRequests(key).map((r) => r.bytes)).toEqual([PART, PART, 3 * CHUNK]);
    const object = bucket.objects.get(key)!;
    expect(object.length).toBe(total);
    expect([object[0], object[CHUNK], object[total - 1]]).toEqual([0, 1, (total / CHUNK - 1) % 251]);
    expect(bucket.tags.get(key)).toEqual({ pending: "1" });
  });

  it("aborts the multipart upload and keeps nothing when a file passes the limit mid-way", async () => {
    const key = generateStorageKey("over.csv");
    await expect(
      getS3Store().putStream(key, bytes(3 * PART), { maxBytes: PART + 100, partSize: PART }),
    ).rejects.toMatchObject({ reason: "size" });
    expect(partRequests(key).length).toBeGreaterThanOrEqual(1); // it had started
    expect([...bucket.uploads.values()].some((u) => u.key === key)).toBe(false);
    expect(bucket.requests.some((r) => r.method === "DELETE" && r.key === key && r.query.includes("uploadId="))).toBe(
      true,
    );
    expect(bucket.objects.has(key)).toBe(false);
  });

  it("stores and registers a form's files through /api/upload's handler, untagged once registered", async () => {
    const form = new FormData();
    form.append("files", new Blob(["sku;x\n1;2\n"], { type: "text/csv" }), "Vendas.csv");
    form.append("files", new Blob(["a;b\n"]), "b.txt");
    const result = await handleUpload(
      new Request("http://localhost/api/upload", { method: "POST", body: form }),
      "ana@example.com",
    );
    if (!("files" in result)) throw new Error(JSON.stringify(result));
    expect(result.files.map((f) => [f.originalName, f.bytes])).toEqual([
      ["Vendas.csv", 10],
      ["b.txt", 4],
    ]);
    for (const f of result.files) {
      expect(bucket.objects.has(f.key)).toBe(true);
      expect(bucket.tags.has(f.key)).toBe(false);
      expect(await findFileById(new ObjectId(f.id))).toMatchObject({
        bucket: "test-bucket",
        originalFile: f.key,
        user: "ana@example.com",
        status: 0,
        progress: 0,
      });
    }
    expect(new TextDecoder().decode(bucket.objects.get(result.files[0].key))).toBe("sku;x\n1;2\n");
  });

  it("refuses a forbidden extension and a file over the limit on S3 too, keeping nothing", async () => {
    process.env.UPLOAD_MAX_BYTES = "1000";
    resetConfigForTests();
    try {
      const keysBefore = [...bucket.objects.keys()];
      const bad = new FormData();
      bad.append("files", new Blob(["MZ"]), "virus.exe");
      expect(
        await handleUpload(new Request("http://localhost/api/upload", { method: "POST", body: bad }), "a@b.c"),
      ).toMatchObject({ failure: { code: "COD.2", status: 415 } });
      const big = new FormData();
      big.append("files", new Blob(["ok"]), "first.csv");
      big.append("files", new Blob([new Uint8Array(5000)]), "big.csv");
      expect(
        await handleUpload(new Request("http://localhost/api/upload", { method: "POST", body: big }), "a@b.c"),
      ).toMatchObject({
        failure: { code: "COD.2", status: 413, detail: "Arquivo maior que o limite de 1.000 bytes." },
      });
      expect([...bucket.objects.keys()]).toEqual(keysBefore); // the first file was removed again
    } finally {
      delete process.env.UPLOAD_MAX_BYTES;
      resetConfigForTests();
    }
  });
});
