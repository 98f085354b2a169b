import type { ActionFunctionArgs } from "@remix-run/node";
import { Collection } from "mongodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { FILES } from "~/models/files.server";
import { action as registerAction } from "~/routes/api.files.register";
import { action as s3Action } from "~/routes/api.uploads.s3";
import { action as uploadAction } from "~/routes/api.upload";
import { S3_SINGLE_PUT_MAX } from "~/services/storage/s3.server";
import { readToastFromResponse } from "~/utils/toast.server";
import { currentUser } from "../auth-mock";
import { useTestDatabase } from "../db";
import { useMockServer } from "../mocks";
import { createFakeBucket, s3Handlers } from "../mocks/s3";
import { useTempDataDir } from "./helpers";

vi.mock("~/auth.server", async () => ({ ...(await import("../auth-mock")), assertSameOrigin: () => undefined }));

const testDb = useTestDatabase();
useTempDataDir();
const server = useMockServer();
const bucket = createFakeBucket("route-bucket");

const json = (url: string, body: unknown) =>
  new Request(`http://localhost${url}`, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
const call = (fn: (args: ActionFunctionArgs) => Promise<unknown>, request: Request) =>
  fn({ request, params: {}, context: {} }) as Promise<Response>;

function withEnv(vars: Record<string, string>) {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const [k, v] of Object.entries(vars)) {
      saved[k] = process.env[k];
      process.env[k] = v;
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
}

describe("POST /api/upload (local store)", () => {
  it("answers JSON to fetch, and redirects a plain form post back with a toast or an error", async () => {
    currentUser.type = "USER BRONZE";
    currentUser.email = "bronze@example.com";
    const form = new FormData();
    form.append("files", new Blob(["sku;x\n"]), "a.csv");
    const viaFetch = await call(uploadAction, new Request("http://localhost/api/upload", { method: "POST", headers: { Accept: "application/json" }, body: form }));
    expect(viaFetch.status).toBe(200);
    const body = await viaFetch.json();
    expect(body).toMatchObject({ ok: true, files: [{ originalName: "a.csv" }] });
    const db = await testDb.db();
    expect(await db.collection(FILES).findOne({ originalFile: body.files[0].key })).toMatchObject({ user: "bronze@example.com", status: 0, progress: 0 });

    const plain = await call(uploadAction, new Request("http://localhost/api/upload", { method: "POST", body: form }));
    expect(plain.status).toBe(302);
    expect(plain.headers.get("Location")).toBe("/captura/manual");
    expect(await readToastFromResponse(plain)).toMatchObject({ type: "success" });

    const bad = new FormData();
    bad.append("files", new Blob(["x"]), "a.exe");
    const refused = await call(uploadAction, new Request("http://localhost/api/upload", { method: "POST", body: bad }));
    expect(refused.headers.get("Location")).toBe("/captura/manual?error=COD.2");
    const refusedJson = await call(uploadAction, new Request("http://localhost/api/upload", { method: "POST", headers: { Accept: "application/json" }, body: bad }));
    expect(refusedJson.status).toBe(415);
    expect(await refusedJson.json()).toMatchObject({ ok: false, code: "COD.2", message: "Ocorreu um erro ao fazer o upload. COD.2" });
  });

  it("is refused to a type that may not upload", async () => {
    currentUser.type = "USER EXPLORER";
    await expect(call(uploadAction, new Request("http://localhost/api/upload", { method: "POST", body: new FormData() }))).rejects.toMatchObject({ status: 403 });
    currentUser.type = "USER BRONZE";
  });
});

describe("S3 direct upload and /newFile registration", () => {
  withEnv({ STORAGE: "s3", S3_BUCKET: "route-bucket", AWS_ACCESS_KEY_ID: "AKIAFAKEFAKEFAKE", AWS_SECRET_ACCESS_KEY: "fake-secret" });

  it("creates a multipart upload, signs parts, completes, and registers the file for the session user", async () => {
    server.use(...s3Handlers(bucket));
    currentUser.email = "silver@example.com";
    currentUser.type = "USER SILVER";
    const created = await (await call(s3Action, json("/api/uploads/s3", { intent: "create", fileName: "Vendas.csv", size: S3_SINGLE_PUT_MAX + 5 }))).json();
    expect(created).toMatchObject({ ok: true, mode: "multipart", bucket: "route-bucket", partCount: 2 });
    const signed = await (await call(s3Action, json("/api/uploads/s3", { intent: "sign-parts", ticket: created.ticket, partNumbers: [1, 2] }))).json();
    const parts = [];
    for (const p of signed.parts) {
      const r = await fetch(p.url, { method: "PUT", body: `p${p.partNumber}` });
      parts.push({ partNumber: p.partNumber, etag: r.headers.get("ETag") });
    }
    const done = await call(s3Action, json("/api/uploads/s3", { intent: "complete", ticket: created.ticket, parts }));
    expect(await done.json()).toMatchObject({ ok: true, key: created.key });
    expect(new TextDecoder().decode(bucket.objects.get(created.key))).toBe("p1p2");

    const payload = { clientName: "journey", originalName: "Vendas.csv", srcBucket: "route-bucket", srcKey: created.key, user: "intruder@example.com", ticket: created.ticket };
    const registered = await call(registerAction, json("/api/files/register", payload));
    expect(registered.status).toBe(200);
    const { id } = await registered.json();
    const file = await (await testDb.db()).collection(FILES).findOne({ originalFile: created.key });
    expect(String(file?._id)).toBe(id);
    expect(file).toMatchObject({ user: "silver@example.com", bucket: "route-bucket", originalName: "Vendas.csv", clientName: "journey", status: 0, progress: 0 });
  });

  it("refuses registration of a key the server did not issue to this user, and bad payloads", async () => {
    server.use(...s3Handlers(bucket));
    currentUser.email = "silver@example.com";
    const created = await (await call(s3Action, json("/api/uploads/s3", { intent: "create", fileName: "a.csv", size: 10 }))).json();
    expect(created.mode).toBe("single");
    currentUser.email = "other@example.com";
    const payload = { originalName: "a.csv", srcBucket: "route-bucket", srcKey: created.key, ticket: created.ticket };
    expect((await call(registerAction, json("/api/files/register", payload))).status).toBe(403);
    currentUser.email = "silver@example.com";
    expect((await call(registerAction, json("/api/files/register", { ...payload, srcKey: "2026/01/other.csv" }))).status).toBe(403);
    expect((await call(registerAction, json("/api/files/register", { ...payload, clientName: "another-tenant" }))).status).toBe(403);
    const invalid = await call(registerAction, json("/api/files/register", { srcKey: 42 }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: "COD.3", message: "Ocorreu um erro ao fazer upload do arquivo. COD.3" });
    expect((await call(s3Action, json("/api/uploads/s3", { intent: "create", fileName: "x.exe", size: 10 }))).status).toBe(415);
  });

  it("deletes the uploaded object when registration fails (COD.3)", async () => {
    server.use(...s3Handlers(bucket));
    currentUser.email = "silver@example.com";
    const created = await (await call(s3Action, json("/api/uploads/s3", { intent: "create", fileName: "b.csv", size: 3 }))).json();
    await fetch(created.url, { method: "PUT", body: "abc", headers: created.headers });
    expect(bucket.objects.has(created.key)).toBe(true);
    const insert = vi.spyOn(Collection.prototype, "insertOne").mockRejectedValueOnce(new Error("database down"));
    try {
      const response = await call(registerAction, json("/api/files/register", { originalName: "b.csv", srcBucket: "route-bucket", srcKey: created.key, ticket: created.ticket }));
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ code: "COD.3" });
    } finally {
      insert.mockRestore();
    }
    expect(bucket.objects.has(created.key)).toBe(false);
  });
});
