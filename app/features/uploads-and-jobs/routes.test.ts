import type { ActionFunctionArgs } from "@remix-run/node";
import { Collection } from "mongodb";
import { http } from "msw";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { useEnv } from "#test/env";
import { useMockServer } from "#test/mocks";
import { createFakeBucket, etagOf, s3Handlers } from "#test/mocks/s3";
import { useTempDataDir } from "#test/upload-fixtures";
import { getConfig } from "~/config.server";
import { REGISTER_API, type Transport, uploadToS3 } from "~/features/uploads-and-jobs/upload-transport";
import { messages } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { FILES, indexes as fileIndexes } from "~/models/files.server";
import { action as registerAction } from "~/routes/api.files.register";
import { action as uploadAction } from "~/routes/api.upload";
import { action as s3Action } from "~/routes/api.uploads.s3";
import { loader as downloadLoader } from "~/routes/download.$token";
import { action as repoFormatAction } from "~/routes/repo.format";
import { S3_SINGLE_PUT_MAX, S3_URL_TTL_SECONDS } from "~/services/storage/s3.server";
import { signDownloadToken } from "~/services/storage/signed-link.server";
import { readToastFromResponse } from "~/shared/toast.server";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
useTempDataDir();
const server = useMockServer();
const bucket = createFakeBucket("route-bucket");

const json = (url: string, body: unknown) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
const call = (fn: (args: ActionFunctionArgs) => Promise<unknown>, request: Request) =>
  fn({ request, params: {}, context: {} }) as Promise<Response>;

describe("POST /api/upload (local store)", () => {
  it("answers JSON to fetch, and redirects a plain form post back with a toast or an error", async () => {
    currentUser.type = "USER BRONZE";
    currentUser.email = "bronze@example.com";
    const form = new FormData();
    form.append("files", new Blob(["sku;x\n"]), "a.csv");
    const viaFetch = await call(
      uploadAction,
      new Request("http://localhost/api/upload", {
        method: "POST",
        headers: { Accept: "application/json" },
        body: form,
      }),
    );
    expect(viaFetch.status).toBe(200);
    const body = await viaFetch.json();
    expect(body).toMatchObject({ ok: true, files: [{ originalName: "a.csv" }] });
    const db = await testDb.db();
    expect(await db.collection(FILES).findOne({ originalFile: body.files[0].key })).toMatchObject({
      user: "bronze@example.com",
      status: 0,
      progress: 0,
    });

    const plain = await call(uploadAction, new Request("http://localhost/api/upload", { method: "POST", body: form }));
    expect(plain.status).toBe(302);
    expect(plain.headers.get("Location")).toBe("/captura/manual");
    expect(await readToastFromResponse(plain)).toMatchObject({ type: "success" });

    const bad = new FormData();
    bad.append("files", new Blob(["x"]), "a.exe");
    const refused = await call(uploadAction, new Request("http://localhost/api/upload", { method: "POST", body: bad }));
    expect(refused.headers.get("Location")).toBe("/captura/manual?error=COD.2");
    const refusedJson = await call(
      uploadAction,
      new Request("http://localhost/api/upload", {
        method: "POST",
        headers: { Accept: "application/json" },
        body: bad,
      }),
    );
    expect(refusedJson.status).toBe(415);
    expect(await refusedJson.json()).toMatchObject({
      ok: false,
      code: "COD.2",
      message: "Ocorreu um erro ao fazer o upload. COD.2",
    });
  });

  it("is refused to a type that may not upload", async () => {
    currentUser.type = "USER EXPLORER";
    await expect(
      call(uploadAction, new Request("http://localhost/api/upload", { method: "POST", body: new FormData() })),
    ).rejects.toMatchObject({ status: 403 });
    currentUser.type = "USER BRONZE";
  });
});

const S3_ENV = {
  STORAGE: "s3",
  S3_BUCKET: "route-bucket",
  S3_OBJECT_TAGGING: "1",
  AWS_ACCESS_KEY_ID: "AKIAFAKEFAKEFAKE",
  AWS_SECRET_ACCESS_KEY: "fake-secret",
};

/** S3 env (plus `extra`), the files indexes, the fake bucket and a SILVER user for each test. */
function useS3(extra: Record<string, string> = {}) {
  useEnv({ ...S3_ENV, ...extra });
  beforeAll(async () => {
    await applyIndexes(await testDb.db(), fileIndexes);
  });
  beforeEach(() => {
    server.use(...s3Handlers(bucket));
    currentUser.email = "silver@example.com";
    currentUser.type = "USER SILVER";
  });
}

describe("S3 direct upload and /newFile registration", () => {
  useS3();

  it("creates a multipart upload, signs parts, completes, and registers the file for the session user", async () => {
    const created = await (
      await call(
        s3Action,
        json("/api/uploads/s3", { intent: "create", fileName: "Vendas.csv", size: S3_SINGLE_PUT_MAX + 5 }),
      )
    ).json();
    expect(created).toMatchObject({ ok: true, mode: "multipart", bucket: "route-bucket", partCount: 2 });
    const signed = await (
      await call(
        s3Action,
        json("/api/uploads/s3", { intent: "sign-parts", ticket: created.ticket, partNumbers: [1, 2] }),
      )
    ).json();
    const parts = [];
    for (const p of signed.parts) {
      const r = await fetch(p.url, { method: "PUT", body: `p${p.partNumber}` });
      parts.push({ partNumber: p.partNumber, etag: r.headers.get("ETag") });
    }
    const done = await call(s3Action, json("/api/uploads/s3", { intent: "complete", ticket: created.ticket, parts }));
    expect(await done.json()).toMatchObject({ ok: true, key: created.key });
    expect(new TextDecoder().decode(bucket.objects.get(created.key))).toBe("p1p2");

    expect(bucket.tags.get(created.key)).toEqual({ pending: "1" });

    const payload = {
      clientName: "journey",
      originalName: "Vendas.csv",
      srcBucket: "route-bucket",
      srcKey: created.key,
      user: "intruder@example.com",
      ticket: created.ticket,
    };
    const registered = await call(registerAction, json("/api/files/register", payload));
    expect(registered.status).toBe(200);
    const { id } = await registered.json();
    const file = await (await testDb.db()).collection(FILES).findOne({ originalFile: created.key });
    expect(String(file?._id)).toBe(id);
    expect(file).toMatchObject({
      user: "silver@example.com",
      bucket: "route-bucket",
      originalName: "Vendas.csv",
      clientName: "journey",
      status: 0,
      progress: 0,
    });
    // Registered: the pending tag is gone, so the lifecycle rule keeps the object.
    expect(bucket.tags.has(created.key)).toBe(false);
    expect(bucket.requests.some((r) => r.method === "HEAD" && r.key === created.key)).toBe(true);

    // The ticket is single-use: a double submit creates no second job and keeps the object.
    const again = await call(registerAction, json("/api/files/register", payload));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      ok: false,
      code: "COD.3",
      message: messages.uploadRegistrationFailed,
      detail: messages.uploadAlreadyRegistered,
    });
    expect(await (await testDb.db()).collection(FILES).countDocuments({ originalFile: created.key })).toBe(1);
    expect(bucket.objects.has(created.key)).toBe(true);
  });

  it("refuses registration of a key the server did not issue to this user, and bad payloads", async () => {
    const created = await (
      await call(s3Action, json("/api/uploads/s3", { intent: "create", fileName: "a.csv", size: 10 }))
    ).json();
    expect(created.mode).toBe("single");
    currentUser.email = "other@example.com";
    const payload = { originalName: "a.csv", srcBucket: "route-bucket", srcKey: created.key, ticket: created.ticket };
    expect((await call(registerAction, json("/api/files/register", payload))).status).toBe(403);
    currentUser.email = "silver@example.com";
    expect(
      (await call(registerAction, json("/api/files/register", { ...payload, srcKey: "2026/01/other.csv" }))).status,
    ).toBe(403);
    expect(
      (await call(registerAction, json("/api/files/register", { ...payload, clientName: "another-tenant" }))).status,
    ).toBe(403);
    const invalid = await call(registerAction, json("/api/files/register", { srcKey: 42 }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      code: "COD.3",
      message: "Ocorreu um erro ao fazer upload do arquivo. COD.3",
    });
    expect(
      (await call(s3Action, json("/api/uploads/s3", { intent: "create", fileName: "x.exe", size: 10 }))).status,
    ).toBe(415);
  });

  it("deletes the uploaded object when registration fails (COD.3)", async () => {
    const created = await (
      await call(s3Action, json("/api/uploads/s3", { intent: "create", fileName: "b.csv", size: 3 }))
    ).json();
    await fetch(created.url, { method: "PUT", body: "abc", headers: created.headers });
    expect(bucket.objects.has(created.key)).toBe(true);
    const insert = vi.spyOn(Collection.prototype, "insertOne").mockRejectedValueOnce(new Error("database down"));
    try {
      const response = await call(
        registerAction,
        json("/api/files/register", {
          originalName: "b.csv",
          srcBucket: "route-bucket",
          srcKey: created.key,
          ticket: created.ticket,
        }),
      );
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ code: "COD.3" });
    } finally {
      insert.mockRestore();
    }
    expect(bucket.objects.has(created.key)).toBe(false);
  });
});

const s3 = async (body: unknown) => call(s3Action, json("/api/uploads/s3", body));
const register = (body: unknown, headers: Record<string, string> = { "Content-Type": "application/json" }) =>
  call(
    registerAction,
    new Request("http://localhost/api/files/register", {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
const filesFor = async (key: string) => (await testDb.db()).collection(FILES).countDocuments({ originalFile: key });

describe("the S3 size limit is the server's too", () => {
  // Just above one multipart plan of two parts.
  const LIMIT = S3_SINGLE_PUT_MAX + 100;
  useS3({ UPLOAD_MAX_BYTES: String(LIMIT) });

  async function twoPartUpload() {
    const created = await (await s3({ intent: "create", fileName: "grande.csv", size: S3_SINGLE_PUT_MAX + 50 })).json();
    expect(created).toMatchObject({ ok: true, mode: "multipart", partCount: 2 });
    const signed = await (await s3({ intent: "sign-parts", ticket: created.ticket, partNumbers: [1, 2] })).json();
    const parts = [];
    for (const p of signed.parts)
      parts.push({
        partNumber: p.partNumber,
        etag: (await fetch(p.url, { method: "PUT", body: `p${p.partNumber}` })).headers.get("ETag")!,
      });
    return { created, parts };
  }

  it("refuses a declared size over the limit and part numbers beyond the plan", async () => {
    const over = await s3({ intent: "create", fileName: "a.csv", size: LIMIT + 1 });
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ ok: false, code: "COD.2", message: messages.uploadFailed });
    const { created } = await twoPartUpload();
    const beyond = await s3({ intent: "sign-parts", ticket: created.ticket, partNumbers: [2, 3] });
    expect(beyond.status).toBe(400);
    expect(await beyond.json()).toMatchObject({
      code: "COD.2",
      message: messages.uploadFailed,
      detail: messages.uploadPartsMismatch,
    });
    await s3({ intent: "abort", ticket: created.ticket });
  });

  it("completes only after ListParts shows the parts within the limit; over it, the upload is aborted (COD.2)", async () => {
    const { created, parts } = await twoPartUpload();
    // S3 lists what it really holds: here two full 64 MB parts, more than the limit.
    server.use(
      http.get("https://route-bucket.s3.us-east-1.amazonaws.com/*", ({ request }) => {
        const q = new URL(request.url).searchParams;
        if (q.get("uploadId") !== created.uploadId) return undefined;
        const part = (n: number, etag: string) =>
          `<Part><PartNumber>${n}</PartNumber><LastModified>2026-01-05T10:00:00.000Z</LastModified><ETag>${etag}</ETag><Size>${S3_SINGLE_PUT_MAX}</Size></Part>`;
        return new Response(
          `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>route-bucket</Bucket><Key>${created.key}</Key><UploadId>${created.uploadId}</UploadId><PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>2</NextPartNumberMarker><MaxParts>1000</MaxParts><IsTruncated>false</IsTruncated>${part(1, parts[0].etag)}${part(2, parts[1].etag)}</ListPartsResult>`,
          { headers: { "Content-Type": "application/xml" } },
        );
      }),
    );
    const done = await s3({ intent: "complete", ticket: created.ticket, parts });
    expect(done.status).toBe(413);
    expect(await done.json()).toMatchObject({
      ok: false,
      code: "COD.2",
      message: messages.uploadFailed,
      detail: expect.stringContaining("maior que o limite"),
    });
    expect(bucket.uploads.has(created.uploadId)).toBe(false);
    expect(bucket.objects.has(created.key)).toBe(false);
  });

  it("refuses and aborts a completion that names parts S3 does not hold or beyond the plan", async () => {
    const { created, parts } = await twoPartUpload();
    const named = [...parts, { partNumber: 3, etag: etagOf(new TextEncoder().encode("p3")) }];
    const done = await s3({ intent: "complete", ticket: created.ticket, parts: named });
    expect(done.status).toBe(400);
    expect(await done.json()).toMatchObject({ code: "COD.2", detail: messages.uploadPartsMismatch });
    expect(bucket.uploads.has(created.uploadId)).toBe(false);

    const within = await twoPartUpload();
    const ok = await s3({ intent: "complete", ticket: within.created.ticket, parts: within.parts });
    expect(await ok.json()).toMatchObject({ ok: true, key: within.created.key, bytes: 4 });
  });
});

describe("/api/uploads/s3 guards", () => {
  useS3();
  const raw = (body: string, type = "application/json") =>
    call(
      s3Action,
      new Request("http://localhost/api/uploads/s3", { method: "POST", headers: { "Content-Type": type }, body }),
    );

  it("answers a body that is not JSON, or not a known request, with 400 and COD.2", async () => {
    for (const response of [await raw("not json"), await raw(JSON.stringify({ intent: "drop" })), await raw("")]) {
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        ok: false,
        code: "COD.2",
        message: messages.uploadFailed,
        detail: messages.badRequest,
      });
    }
  });

  it("does not read a body over 2 MB (413), whatever it holds", async () => {
    const parts = Array.from({ length: 10_000 }, (_, i) => ({ partNumber: i + 1, etag: `"${"a".repeat(200)}"` }));
    const response = await raw(JSON.stringify({ intent: "complete", ticket: "x".repeat(20), parts }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ ok: false, code: "COD.2", detail: messages.badRequest });
  });
});

describe("/api/files/register guards", () => {
  useS3({ UPLOAD_MAX_BYTES: "10" });

  async function singleUpload(body: string | null) {
    const created = await (await s3({ intent: "create", fileName: "reg.csv", size: 5 })).json();
    expect(created.mode).toBe("single");
    // The fake bucket does not check the signed content-length, so a larger body stands in for a forged PUT.
    if (body !== null)
      expect((await fetch(created.url, { method: "PUT", body, headers: created.headers })).status).toBe(200);
    return {
      created,
      payload: { originalName: "reg.csv", srcBucket: "route-bucket", srcKey: created.key, ticket: created.ticket },
    };
  }

  it("answers a wrong or missing Content-Type, a malformed or oversized body with a clear 400/413 (COD.3), never a 500", async () => {
    const { created, payload } = await singleUpload("12345");
    const refusedWith = async (response: Response, status: number) => {
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({
        ok: false,
        code: "COD.3",
        message: messages.uploadRegistrationFailed,
        detail: messages.uploadRegisterBadRequest,
      });
    };
    await refusedWith(await register(payload, {}), 400);
    await refusedWith(await register(payload, { "Content-Type": "text/plain" }), 400);
    await refusedWith(await register(payload, { "Content-Type": "multipart/form-data; boundary=x" }), 400);
    await refusedWith(await register("{not json", { "Content-Type": "application/json" }), 400);
    await refusedWith(await register({ ...payload, padding: "x".repeat(20_000) }), 413);
    const declared = new Request("http://localhost/api/files/register", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": "100000000" },
      body: "{}",
    });
    await refusedWith(await call(registerAction, declared), 413);
    expect(await filesFor(created.key)).toBe(0);
    expect(bucket.tags.get(created.key)).toEqual({ pending: "1" });

    // The same payload as a urlencoded form is accepted.
    const form = await register(new URLSearchParams(payload).toString(), {
      "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8",
    });
    expect(form.status).toBe(200);
    expect(await filesFor(created.key)).toBe(1);
  });

  it("looks the object up first: missing is COD.2 and registers nothing; over the limit is deleted (COD.2)", async () => {
    const never = await singleUpload(null);
    const missing = await register(never.payload);
    expect(missing.status).toBe(409);
    expect(await missing.json()).toMatchObject({
      ok: false,
      code: "COD.2",
      message: messages.uploadFailed,
      detail: messages.uploadObjectMissing,
    });
    expect(await filesFor(never.created.key)).toBe(0);

    const forged = await singleUpload("0123456789ABCDEF");
    const tooBig = await register(forged.payload);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({
      ok: false,
      code: "COD.2",
      detail: "Arquivo maior que o limite de 10 bytes.",
    });
    expect(bucket.objects.has(forged.created.key)).toBe(false);
    expect(await filesFor(forged.created.key)).toBe(0);
  });
});

describe("the browser transport against the routes and the bucket", () => {
  useS3();

  /** The transport a browser would use, with the app's routes called directly and the bucket reached through fetch (msw). */
  function routeTransport(hooks: { beforePut?: (url: URL) => void; afterPut?: (url: URL) => void } = {}): Transport {
    return {
      postJson: async (url, payload) => {
        const response = await call(url === REGISTER_API ? registerAction : s3Action, json(url, payload));
        return { status: response.status, body: await response.json() };
      },
      sendBytes: async (method, url, body, options) => {
        hooks.beforePut?.(new URL(url));
        try {
          const response = await fetch(url, { method, body, headers: options.headers, signal: options.signal });
          const size = body instanceof Blob ? body.size : 0;
          options.onProgress?.(size, size);
          return { status: response.status, body: null, etag: response.headers.get("ETag") };
        } catch {
          return options.signal.aborted ? { aborted: true } : { networkError: true };
        } finally {
          hooks.afterPut?.(new URL(url));
        }
      },
    };
  }

  /** A file the server plans as multipart (over 64 MB) whose slices are small, so the test moves few bytes. */
  function largeFile(name: string): File {
    const size = S3_SINGLE_PUT_MAX + 10;
    return {
      name,
      size,
      type: "text/csv",
      slice: (start: number) => new Blob([`bytes from ${start};`]),
    } as unknown as File;
  }

  it("uploads a small file with the signed tag header and registers it", async () => {
    const file = new File(["sku;x\n1;2\n"], "pequeno.csv", { type: "text/csv" });
    const progress: number[] = [];
    expect(await uploadToS3(file, (loaded) => progress.push(loaded), "journey", routeTransport()).promise).toEqual({
      ok: true,
      fileId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    const record = await (await testDb.db()).collection(FILES).findOne({ originalName: "pequeno.csv" });
    expect(record).toMatchObject({ user: "silver@example.com", bucket: "route-bucket", status: 0, progress: 0 });
    expect(new TextDecoder().decode(bucket.objects.get(record!.originalFile))).toBe("sku;x\n1;2\n");
    expect(bucket.tags.has(record!.originalFile)).toBe(false);
    expect(progress.at(-1)).toBe(file.size);
  });

  it("re-signs a part whose URL expired while earlier parts were going up, completes and registers", async () => {
    let expiredOnce = false;
    const transport = routeTransport({
      // Part 2's first URL is used after S3's clock passed its 5 minutes.
      beforePut: (url) => {
        if (url.searchParams.get("partNumber") === "2" && !expiredOnce) {
          expiredOnce = true;
          bucket.clockOffsetMs = (S3_URL_TTL_SECONDS + 60) * 1000;
        }
      },
      afterPut: () => (bucket.clockOffsetMs = 0),
    });
    const before = bucket.requests.length;
    expect(await uploadToS3(largeFile("grande.csv"), () => undefined, "journey", transport).promise).toEqual({
      ok: true,
      fileId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    const partPuts = bucket.requests.slice(before).filter((r) => r.method === "PUT" && r.query.includes("partNumber="));
    expect(partPuts.map((r) => new URLSearchParams(r.query).get("partNumber"))).toEqual(["1", "2", "2"]);
    const record = await (await testDb.db()).collection(FILES).findOne({ originalName: "grande.csv" });
    expect(new TextDecoder().decode(bucket.objects.get(record!.originalFile))).toBe(
      `bytes from 0;bytes from ${S3_SINGLE_PUT_MAX};`,
    );
    expect(bucket.tags.has(record!.originalFile)).toBe(false);
  });

  it("cancel aborts the multipart upload in the bucket and registers nothing", async () => {
    let handle: ReturnType<typeof uploadToS3> | null = null;
    const transport = routeTransport({
      beforePut: (url) => url.searchParams.get("partNumber") === "2" && handle?.abort(),
    });
    handle = uploadToS3(largeFile("cancelado.csv"), () => undefined, "journey", transport);
    expect(await handle.promise).toEqual({ ok: false, aborted: true });
    const create = bucket.requests.filter((r) => r.method === "POST" && r.query.includes("uploads")).at(-1)!;
    expect([...bucket.uploads.values()].some((u) => u.key === create.key)).toBe(false);
    expect(bucket.requests.at(-1)).toMatchObject({
      method: "DELETE",
      key: create.key,
      query: expect.stringContaining("uploadId="),
    });
    expect(bucket.objects.has(create.key)).toBe(false);
    expect(await (await testDb.db()).collection(FILES).countDocuments({ originalName: "cancelado.csv" })).toBe(0);
  });
});

describe("downloads from /repo/format on S3: the portal's link checks the object when it is followed", () => {
  useS3();

  const FROM = "http://localhost/repo/format?page=2&pageSize=40";
  const download = (link: string, referer = FROM) =>
    downloadLoader({
      params: { token: link.slice("/download/".length) },
      request: new Request(`http://localhost${link}`, { headers: { Referer: referer } }),
      context: {},
    });
  const requestDownload = async (fileId: string) => {
    currentUser.type = "USER GOLD";
    const form = new FormData();
    for (const [k, v] of Object.entries({ intent: "download", fileId, mode: "fetch" })) form.append(k, v);
    // The action answers with data() (Remix's typed answer with a status), not a Response.
    const answer = (await repoFormatAction({
      request: new Request("http://localhost/repo/format", { method: "POST", body: form }),
      params: {},
      context: {},
    })) as unknown;
    return (answer as { data: { ok: boolean; url?: string } }).data;
  };
  const storedFile = async (name: string) => {
    const key = `2030/05/${crypto.randomUUID()}.csv`;
    bucket.objects.set(key, new TextEncoder().encode("a;b\n"));
    const { insertedId } = await (await testDb.db()).collection(FILES).insertOne({
      originalName: name,
      originalFile: key,
      bucket: "route-bucket",
      user: "bronze@example.com",
      statusChangeDate: new Date(),
      status: 0,
      progress: 100,
    });
    return { key, id: String(insertedId) };
  };

  it("issues the portal's link, which sends the browser on to a presigned GET once the object is there", async () => {
    const { key, id } = await storedFile("Vendas maio.csv");
    const answer = await requestDownload(id);
    expect(answer).toMatchObject({ ok: true, url: expect.stringMatching(/^\/download\/[\w-]+\.[\w-]+$/) });
    const response = await download(answer.url as string);
    expect(response.status).toBe(302);
    const presigned = new URL(response.headers.get("Location") as string);
    expect(presigned.host).toBe("route-bucket.s3.us-east-1.amazonaws.com");
    expect(decodeURIComponent(presigned.pathname.slice(1))).toBe(key);
    expect(presigned.searchParams.get("response-content-disposition")).toContain("Vendas%20mai");
    expect(bucket.requests.some((r) => r.method === "HEAD" && r.key === key)).toBe(true);
    // The presigned GET itself downloads the object.
    expect(await (await fetch(presigned)).text()).toBe("a;b\n");
  });

  it("an object deleted after the link was issued, an expired link or a store that does not answer: back to the page with the alert", async () => {
    const { key, id } = await storedFile("Apagado.csv");
    const { url } = await requestDownload(id);
    bucket.objects.delete(key);
    const gone = await download(url as string);
    expect(gone).toRedirectTo("/repo/format?page=2&pageSize=40");
    await expect(gone).toSendToast({ type: "error", description: messages.downloadFailed });

    const expired = `/download/${signDownloadToken({ bucket: "route-bucket", key, filename: "a.csv", expiresAt: Date.now() - 1 }, getConfig().session.secret)}`;
    await expect(download(expired)).resolves.toRedirectTo("/repo/format?page=2&pageSize=40");

    const other = await storedFile("Fora do ar.csv");
    const link = (await requestDownload(other.id)).url as string;
    server.use(
      http.head("https://route-bucket.s3.us-east-1.amazonaws.com/*", () => new Response(null, { status: 503 })),
    );
    const down = await download(link);
    expect(down).toRedirectTo("/repo/format?page=2&pageSize=40");
    await expect(down).toSendToast({ type: "error", description: messages.downloadFailed });
    // Another site's Referer is never followed, nor a path that would leave the origin.
    expect(await download(link, "https://evil.example/x")).toRedirectTo("/");
    expect(await download(link, "http://localhost//evil.example/x")).toRedirectTo("/");
  });
});
