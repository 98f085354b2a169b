import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { processNextJob } from "~/import/worker-loop.server";
import { findFileById, registerFile } from "~/models/file-jobs.server";
import { PRODUCT_MASTER } from "~/models/master-data.server";
import { generateStorageKey, getDownloadUrl, getS3Store, openReadStream } from "~/services/storage.server";
import { S3_SINGLE_PUT_MAX } from "~/services/storage/s3.server";
import { useTestDatabase } from "../db";
import { useMockServer } from "../mocks";
import { createFakeBucket, s3Handlers } from "../mocks/s3";
import { PRODUCT_HEADER, productLine } from "./helpers";

const env = { STORAGE: "s3", S3_BUCKET: "test-bucket", AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "AKIAFAKEFAKEFAKE", AWS_SECRET_ACCESS_KEY: "fake/secret/key", AWS_SESSION_TOKEN: "" };
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    if (v) process.env[k] = v;
    else delete process.env[k];
  }
  resetConfigForTests();
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfigForTests();
});

const testDb = useTestDatabase();
const server = useMockServer();
const bucket = createFakeBucket("test-bucket");
beforeAll(() => server.use(...s3Handlers(bucket)));

describe("S3 store", () => {
  it("issues a presigned PUT for a small file", async () => {
    server.use(...s3Handlers(bucket));
    const key = generateStorageKey("small.csv");
    const plan = await getS3Store().createUpload({ key, size: 1234, contentType: "text/csv" });
    expect(plan.mode).toBe("single");
    if (plan.mode !== "single") return;
    const url = new URL(plan.url);
    expect(url.host).toBe("test-bucket.s3.us-east-1.amazonaws.com");
    expect(decodeURIComponent(url.pathname.slice(1))).toBe(key);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(url.searchParams.get("X-Amz-Credential")).toContain("AKIAFAKEFAKEFAKE");
    // The browser's PUT, played against the fake bucket.
    const put = await fetch(plan.url, { method: "PUT", body: "a;b\n", headers: plan.headers });
    expect(put.status).toBe(200);
    expect(new TextDecoder().decode(bucket.objects.get(key))).toBe("a;b\n");
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
    await store.completeUpload(key, plan.uploadId, etags.reverse());
    expect(new TextDecoder().decode(bucket.objects.get(key))).toBe("part-1;part-2;");

    const other = await store.createUpload({ key: generateStorageKey("c.csv"), size: S3_SINGLE_PUT_MAX + 1 });
    if (other.mode !== "multipart") throw new Error("expected multipart");
    await store.abortUpload(other.key, other.uploadId);
    expect(bucket.uploads.has(other.uploadId)).toBe(false);
    expect(bucket.requests.some((r) => r.method === "DELETE" && r.query.includes(`uploadId=${other.uploadId}`))).toBe(true);
  });

  it("issues a 5-minute presigned GET that downloads under the original name", async () => {
    const key = generateStorageKey("Relatório.csv");
    const url = new URL(await getDownloadUrl("test-bucket", key, "Relatório.csv"));
    expect(url.host).toBe("test-bucket.s3.us-east-1.amazonaws.com");
    expect(decodeURIComponent(url.pathname.slice(1))).toBe(key);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(url.searchParams.get("response-content-disposition")).toBe(`attachment; filename="Relat_rio.csv"; filename*=UTF-8''Relat%C3%B3rio.csv`);
  });

  it("lets the worker read an object with GetObject and import it", async () => {
    server.use(...s3Handlers(bucket));
    const key = generateStorageKey("produtos.csv");
    bucket.objects.set(key, new TextEncoder().encode([PRODUCT_HEADER, productLine(1), productLine(2, true)].join("\n")));
    const { stream, size } = await openReadStream("test-bucket", key);
    expect(size).toBeGreaterThan(100);
    stream.destroy();
    const id = await registerFile({ originalName: "produtos.csv", key, bucket: "test-bucket", user: "ana@example.com" });
    expect(await processNextJob({ name: "s3-worker", leaseMs: 60_000 })).toMatchObject({ status: 0, message: "1 linhas OK, 1 NOK" });
    expect(await findFileById(id)).toMatchObject({ progress: 100 });
    const ok = await (await testDb.db()).collection(PRODUCT_MASTER).findOne({ sourceFileId: id });
    expect(ok).toMatchObject({ sku: "SKU1", urlPath: `s3://test-bucket/${key}` });
    await expect(openReadStream("test-bucket", "2026/01/missing.csv")).rejects.toThrow(/not found/);
  });
});
