import crypto from "node:crypto";
import { GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { ActionFunctionArgs } from "@remix-run/node";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { REGISTER_API, type Transport, uploadToS3 } from "~/features/uploads-and-jobs/upload-transport";
import { messages } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { registerFile } from "~/models/file-jobs.server";
import { FILES, indexes as fileIndexes } from "~/models/files.server";
import { PRODUCT_MASTER } from "~/models/master-data.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { action as registerAction } from "~/routes/api.files.register";
import { action as uploadAction } from "~/routes/api.upload";
import { action as s3Action } from "~/routes/api.uploads.s3";
import { loader as downloadLoader } from "~/routes/download.$token";
import { action as repoAction } from "~/routes/repo.format";
import { S3_SERVER_PART_SIZE, S3_SINGLE_PUT_MAX } from "~/services/storage/s3.server";
import { forgetS3StoresForTests, generateStorageKey } from "~/services/storage.server";
import { readToastFromResponse } from "~/shared/toast.server";
import { toastDismissMs } from "~/shared/ui/toaster";
import { currentUser } from "../auth-mock";
import { useTestDatabase } from "../db";
import { grantPermission, PRODUCT_HEADER, productLine } from "../upload-fixtures";
import { captureLog, S3RVER_BUCKET, useS3rver } from "./s3rver";

/**
 * The S3 provider against a real S3-compatible server (s3rver, started here): uploads with and without
 * JavaScript, multipart, downloads, a missing object, a refused credential and S3 going down mid-upload. Each
 * failure ends with the spec's text for the user and the cause in the log.
 */

vi.mock("~/platform/auth/auth.server", () => import("../auth-mock"));

const testDb = useTestDatabase();
const s3 = useS3rver();

const call = (fn: (args: ActionFunctionArgs) => Promise<unknown>, request: Request) =>
  fn({ request, params: {}, context: {} }) as Promise<Response>;
/** A route's answer as status and JSON, whether it returned a Response or Remix's data(). */
async function answerOf(
  fn: (args: ActionFunctionArgs) => Promise<unknown>,
  request: Request,
): Promise<{ status: number; body: unknown; location: string | null }> {
  const result = (await fn({ request, params: {}, context: {} })) as
    | Response
    | { data: unknown; init?: { status?: number } | null };
  if (result instanceof Response) {
    const location = result.headers.get("Location");
    return { status: result.status, body: location ? null : await result.json(), location };
  }
  return { status: result.init?.status ?? 200, body: result.data, location: null };
}
const postJson = (url: string, body: unknown) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
const formPost = (url: string, form: FormData, json = false) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: json ? { Accept: "application/json" } : {},
    body: form,
  });

function csv(rows: number): string {
  const lines = [PRODUCT_HEADER];
  for (let i = 0; i < rows; i++) lines.push(productLine(i));
  return `${lines.join("\n")}\n`;
}

/** The bucket as a client of its own sees it (not through the portal's code). */
function bucketClient(): S3Client {
  return new S3Client({
    region: "us-east-1",
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
}
async function readObject(key: string): Promise<string> {
  const answer = await bucketClient().send(new GetObjectCommand({ Bucket: S3RVER_BUCKET, Key: key }));
  return answer.Body!.transformToString();
}
async function objectExists(key: string): Promise<boolean> {
  return bucketClient()
    .send(new HeadObjectCommand({ Bucket: S3RVER_BUCKET, Key: key }))
    .then(
      () => true,
      () => false,
    );
}

const s3Failure = (lines: Array<Record<string, unknown>>, operation: string) =>
  lines.find((l) => l.msg === "s3 request failed" && l.operation === operation && l.component === "storage");

beforeAll(async () => {
  await applyIndexes(await testDb.db(), fileIndexes);
  // The session user as the worker finds it when it checks the uploader's rights.
  await grantPermission(await testDb.db(), "gold@example.com", "USER GOLD");
});
beforeEach(() => {
  currentUser.email = "gold@example.com";
  currentUser.type = "USER GOLD";
});

describe("S3-compatible storage (s3rver)", () => {
  it("without JavaScript: the form streams into the bucket, the worker imports it, and the download redirects to a presigned GET", async () => {
    const form = new FormData();
    form.append("files", new Blob([csv(30)]), "Produtos.csv");
    const posted = await call(uploadAction, formPost("/api/upload", form));
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe("/captura/manual");
    const toast = await readToastFromResponse(posted);
    expect(toast).toMatchObject({ type: "success", description: messages.uploaded(["Produtos.csv"]) });
    expect(toastDismissMs(toast!)).toBe(5000);

    const db = await testDb.db();
    const file = await db.collection(FILES).findOne({ originalName: "Produtos.csv" });
    expect(file).toMatchObject({ bucket: S3RVER_BUCKET, user: "gold@example.com", status: 0 });
    expect(await readObject(file!.originalFile)).toBe(csv(30));

    // The worker reads the object back from the bucket.
    expect(await processNextJob({ name: "s3-worker", leaseMs: 60_000 })).toMatchObject({
      kind: "done",
      status: 0,
      okRows: 30,
      nokRows: 0,
    });
    expect(await db.collection(PRODUCT_MASTER).findOne({ sourceFileId: file!._id })).toMatchObject({
      urlPath: `s3://${S3RVER_BUCKET}/${file!.originalFile}`,
    });

    // Download without JavaScript: a plain form post answered with a redirect to the presigned GET.
    const download = new FormData();
    download.append("intent", "download");
    download.append("fileId", String(file!._id));
    const redirect = await answerOf(repoAction, formPost("/repo/format", download));
    expect(redirect.status).toBe(302);
    // The portal's own link first (it checks the object when followed), then the presigned GET.
    expect(redirect.location).toMatch(/^\/download\/[\w-]+\.[\w-]+$/);
    const followed = await downloadLoader({
      params: { token: redirect.location!.slice("/download/".length) },
      request: new Request(`http://localhost${redirect.location}`, {
        headers: { Referer: "http://localhost/repo/format" },
      }),
      context: {},
    });
    expect(followed.status).toBe(302);
    const url = new URL(followed.headers.get("Location")!);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.pathname).toBe(`/${S3RVER_BUCKET}/${file!.originalFile}`);
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-disposition")).toContain('filename="Produtos.csv"');
    expect(await fetched.text()).toBe(csv(30));

    // With JavaScript: the same link as JSON.
    download.append("mode", "fetch");
    const body = (await answerOf(repoAction, formPost("/repo/format", download))).body as { ok: boolean; url: string };
    expect(body.ok).toBe(true);
    const viaPortal = await downloadLoader({
      params: { token: body.url.slice("/download/".length) },
      request: new Request(`http://localhost${body.url}`),
      context: {},
    });
    expect(await (await fetch(viaPortal.headers.get("Location")!)).text()).toBe(csv(30));
  });

  it("without JavaScript, a file above one part goes up as a multipart upload, byte for byte", async () => {
    const big = Buffer.alloc(S3_SERVER_PART_SIZE + 1234, "x");
    crypto.randomFillSync(big, 0, 4096);
    const form = new FormData();
    form.append("files", new Blob([big]), "grande.txt");
    const posted = await call(uploadAction, formPost("/api/upload", form, true));
    expect(posted.status).toBe(200);
    const { files } = (await posted.json()) as { files: Array<{ key: string; bytes: number }> };
    expect(files[0].bytes).toBe(big.length);
    const stored = await bucketClient().send(new GetObjectCommand({ Bucket: S3RVER_BUCKET, Key: files[0].key }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(big)).toBe(true);
  });

  it("with JavaScript: a presigned PUT and a presigned multipart upload, each registered for the session user", async () => {
    const content = csv(5);
    const created = (await (
      await call(
        s3Action,
        postJson("/api/uploads/s3", {
          intent: "create",
          fileName: "direto.csv",
          size: content.length,
          contentType: "text/csv",
        }),
      )
    ).json()) as {
      ok: boolean;
      mode: string;
      url: string;
      headers: Record<string, string>;
      key: string;
      ticket: string;
    };
    expect(created).toMatchObject({ ok: true, mode: "single", bucket: S3RVER_BUCKET });
    // No tag header unless S3_OBJECT_TAGGING is on: s3rver, R2 and GCS do not keep tags.
    expect(created.headers).toEqual({ "Content-Type": "text/csv" });
    expect(new URL(created.url).origin).toBe(s3.endpoint);
    const put = await fetch(created.url, { method: "PUT", body: content, headers: created.headers });
    expect(put.status).toBe(200);
    const registered = await call(
      registerAction,
      postJson("/api/files/register", {
        clientName: "journey",
        originalName: "direto.csv",
        srcBucket: S3RVER_BUCKET,
        srcKey: created.key,
        ticket: created.ticket,
      }),
    );
    expect(registered.status).toBe(200);
    expect(await readObject(created.key)).toBe(content);

    // Multipart: a declared size above one presigned PUT; parts of at least 5 MiB except the last, as S3 requires.
    const first = Buffer.alloc(5 * 1024 * 1024, "a");
    const last = Buffer.from("fim");
    const multi = (await (
      await call(
        s3Action,
        postJson("/api/uploads/s3", { intent: "create", fileName: "partes.txt", size: S3_SINGLE_PUT_MAX + 1 }),
      )
    ).json()) as {
      mode: string;
      ticket: string;
      key: string;
      partCount: number;
    };
    expect(multi).toMatchObject({ mode: "multipart", partCount: 2 });
    const signed = (await (
      await call(
        s3Action,
        postJson("/api/uploads/s3", { intent: "sign-parts", ticket: multi.ticket, partNumbers: [1, 2] }),
      )
    ).json()) as {
      parts: Array<{ partNumber: number; url: string }>;
    };
    const parts: Array<{ partNumber: number; etag: string }> = [];
    for (const part of signed.parts) {
      const answer = await fetch(part.url, { method: "PUT", body: part.partNumber === 1 ? first : last });
      expect(answer.status).toBe(200);
      parts.push({ partNumber: part.partNumber, etag: answer.headers.get("etag")! });
    }
    const completed = await call(
      s3Action,
      postJson("/api/uploads/s3", { intent: "complete", ticket: multi.ticket, parts }),
    );
    expect(await completed.json()).toMatchObject({ ok: true, key: multi.key, bytes: first.length + last.length });
    const reg = await call(
      registerAction,
      postJson("/api/files/register", {
        clientName: "journey",
        originalName: "partes.txt",
        srcBucket: S3RVER_BUCKET,
        srcKey: multi.key,
        ticket: multi.ticket,
      }),
    );
    expect(reg.status).toBe(200);
    expect(
      Buffer.from(
        await (
          await bucketClient().send(new GetObjectCommand({ Bucket: S3RVER_BUCKET, Key: multi.key }))
        ).Body!.transformToByteArray(),
      ).equals(Buffer.concat([first, last])),
    ).toBe(true);
  });

  it("with JavaScript, the browser's own transport: a small file and a multipart one, progress to the end, registered", async () => {
    const transport: Transport = {
      postJson: async (url, payload) => {
        const response = await call(url === REGISTER_API ? registerAction : s3Action, postJson(url, payload));
        return { status: response.status, body: await response.json() };
      },
      sendBytes: async (method, url, body, options) => {
        const response = await fetch(url, { method, body, headers: options.headers, signal: options.signal });
        const size = body instanceof Blob ? body.size : 0;
        options.onProgress?.(size, size);
        return { status: response.status, body: null, etag: response.headers.get("ETag") };
      },
    };
    const small = new File([csv(4)], "navegador.csv", { type: "text/csv" });
    const progress: number[] = [];
    expect(await uploadToS3(small, (loaded) => progress.push(loaded), "journey", transport).promise).toEqual({
      ok: true,
      fileId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    expect(progress.at(-1)).toBe(small.size);
    // Planned as multipart (over one PUT), the first slice 5 MiB as S3 requires of every part but the last.
    const firstPart = Buffer.alloc(5 * 1024 * 1024, "m");
    const large = {
      name: "navegador-grande.txt",
      size: S3_SINGLE_PUT_MAX + 10,
      type: "text/plain",
      slice: (start: number) => new Blob([start === 0 ? firstPart : Buffer.from("fim")]),
    } as unknown as File;
    expect(await uploadToS3(large, () => undefined, "journey", transport).promise).toEqual({
      ok: true,
      fileId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    const db = await testDb.db();
    const records = await db
      .collection(FILES)
      .find({ originalName: { $in: ["navegador.csv", "navegador-grande.txt"] } })
      .toArray();
    expect(records).toHaveLength(2);
    for (const record of records)
      expect(record).toMatchObject({ bucket: S3RVER_BUCKET, user: "gold@example.com", status: 0 });
    const bigKey = records.find((r) => r.originalName === "navegador-grande.txt")!.originalFile as string;
    expect(
      (await bucketClient().send(new HeadObjectCommand({ Bucket: S3RVER_BUCKET, Key: bigKey }))).ContentLength,
    ).toBe(firstPart.length + 3);
  });

  it("a missing object: COD.2 at registration, the download alert, the worker's message — each cause logged", async () => {
    const created = (await (
      await call(s3Action, postJson("/api/uploads/s3", { intent: "create", fileName: "nunca.csv", size: 10 }))
    ).json()) as { key: string; ticket: string };
    const { result: registered, lines } = await captureLog(() =>
      call(
        registerAction,
        postJson("/api/files/register", {
          clientName: "journey",
          originalName: "nunca.csv",
          srcBucket: S3RVER_BUCKET,
          srcKey: created.key,
          ticket: created.ticket,
        }),
      ),
    );
    expect(registered.status).toBe(409);
    expect(await registered.json()).toMatchObject({
      ok: false,
      code: "COD.2",
      message: messages.uploadFailed,
      detail: messages.uploadObjectMissing,
    });
    expect(s3Failure(lines, "HeadObject")).toMatchObject({
      level: "warn",
      bucket: S3RVER_BUCKET,
      key: created.key,
      httpStatus: 404,
    });

    // Earlier uploads are still queued: the worker takes them first.
    while (await processNextJob({ name: "s3-worker", leaseMs: 60_000 }));
    const key = generateStorageKey("sumiu.csv");
    const id = await registerFile({ originalName: "sumiu.csv", key, bucket: S3RVER_BUCKET, user: "gold@example.com" });
    const download = new FormData();
    download.append("intent", "download");
    download.append("fileId", String(id));
    const { result: refused, lines: downloadLog } = await captureLog(() =>
      answerOf(repoAction, formPost("/repo/format", download)),
    );
    expect(refused).toMatchObject({ status: 404, body: { ok: false, error: messages.downloadFailed } });
    expect(s3Failure(downloadLog, "HeadObject")).toMatchObject({ key, httpStatus: 404 });

    const { result: outcome, lines: workerLog } = await captureLog(() =>
      processNextJob({ name: "s3-worker", leaseMs: 60_000 }),
    );
    expect(outcome).toMatchObject({
      kind: "done",
      status: 3,
      message: "Não foi possível ler o arquivo: o arquivo armazenado não foi encontrado.",
    });
    expect(s3Failure(workerLog, "GetObject")).toMatchObject({ key, errorName: "NoSuchKey" });
  });

  it("a refused credential: uploads answer COD.2, downloads their alert, and the log names the S3 error", async () => {
    const form = new FormData();
    form.append("files", new Blob([csv(2)]), "ok.csv");
    const good = (await (await call(uploadAction, formPost("/api/upload", form, true))).json()) as {
      files: Array<{ id: string }>;
    };

    process.env.AWS_ACCESS_KEY_ID = "NOT-A-KEY";
    resetConfigForTests();
    forgetS3StoresForTests();
    try {
      const db = await testDb.db();
      const before = await db.collection(FILES).countDocuments();
      const { result: refused, lines } = await captureLog(() =>
        call(uploadAction, formPost("/api/upload", form, true)),
      );
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(await refused.json()).toMatchObject({ ok: false, code: "COD.2", message: messages.uploadFailed });
      expect(s3Failure(lines, "PutObject")).toMatchObject({
        level: "error",
        errorName: "InvalidAccessKeyId",
        httpStatus: 403,
      });
      expect(await db.collection(FILES).countDocuments()).toBe(before);
      // The line carries the cause, never the secret.
      expect(JSON.stringify(lines)).not.toContain("S3RVER");

      // A presigned PUT signed with that key is refused by the bucket (the browser shows COD.2).
      const created = (await (
        await call(s3Action, postJson("/api/uploads/s3", { intent: "create", fileName: "x.csv", size: 3 }))
      ).json()) as { url: string; headers: Record<string, string> };
      expect((await fetch(created.url, { method: "PUT", body: "a;b", headers: created.headers })).status).toBe(403);

      const download = new FormData();
      download.append("intent", "download");
      download.append("fileId", good.files[0].id);
      const { result: noDownload, lines: downloadLog } = await captureLog(() =>
        answerOf(repoAction, formPost("/repo/format", download)),
      );
      expect(noDownload).toMatchObject({ status: 502, body: { ok: false, error: messages.downloadFailed } });
      expect(s3Failure(downloadLog, "HeadObject")).toMatchObject({ httpStatus: 403 });
    } finally {
      process.env.AWS_ACCESS_KEY_ID = "S3RVER";
      resetConfigForTests();
      forgetS3StoresForTests();
    }
  });

  it("S3 down mid-upload: COD.2, nothing registered or left behind, the cause logged; uploads work again once it is back", async () => {
    const db = await testDb.db();
    const before = await db.collection(FILES).countDocuments();
    const boundary = "----portal-fault-test";
    const encoder = new TextEncoder();
    const chunk = Buffer.alloc(1024 * 1024, "y");
    let sent = 0;
    let stopped = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          encoder.encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="queda.txt"\r\nContent-Type: text/plain\r\n\r\n`,
          ),
        );
      },
      async pull(controller) {
        // The first part (8 MiB) goes out; then S3 stops while the rest of the file is still arriving.
        if (sent === S3_SERVER_PART_SIZE / chunk.length + 1 && !stopped) {
          stopped = true;
          await new Promise((r) => setTimeout(r, 300));
          await s3.stop();
        }
        if (sent < 20) {
          sent++;
          controller.enqueue(chunk);
          return;
        }
        controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const request = new Request("http://localhost/api/upload", {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    const started = Date.now();
    const { result: failed, lines } = await captureLog(() => call(uploadAction, request));
    expect(stopped).toBe(true);
    expect(await failed.json()).toMatchObject({ ok: false, code: "COD.2", message: messages.uploadFailed });
    expect(Date.now() - started).toBeLessThan(30_000);
    const cause = lines.find((l) => l.msg === "s3 request failed" && l.level === "error");
    expect(cause).toMatchObject({ component: "storage", bucket: S3RVER_BUCKET });
    expect(String(cause?.error) + String(cause?.errorCode) + String(cause?.cause)).toMatch(
      /ECONNREFUSED|ECONNRESET|socket|connect/i,
    );
    expect(await db.collection(FILES).countDocuments()).toBe(before);

    await s3.start();
    const form = new FormData();
    form.append("files", new Blob([csv(3)]), "depois.csv");
    const again = await call(uploadAction, formPost("/api/upload", form, true));
    expect(again.status).toBe(200);
    const { files } = (await again.json()) as { files: Array<{ key: string }> };
    expect(await objectExists(files[0].key)).toBe(true);
    expect(await db.collection(FILES).countDocuments()).toBe(before + 1);
  });
});
