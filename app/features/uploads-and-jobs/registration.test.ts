import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { Collection } from "mongodb";
import { describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { endedFileRecord, storeAndRegister, useTempDataDir } from "#test/upload-fixtures";
import { resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import {
  countFiles,
  FileAlreadyRegisteredError,
  findFileById,
  listFilesPage,
  registerFile,
  registerStoredObject,
  retryJob,
  sweepOrphanUploads,
} from "~/models/file-jobs.server";
import { FILES, indexes as fileIndexes } from "~/models/files.server";
import { handleUpload, MAX_FILES_PER_POST, maxPostBytes } from "~/platform/import/upload.server";
import { loader as downloadLoader } from "~/routes/download.$token";
import { generateStorageKey, getDownloadUrl, getLocalStore, LOCAL_BUCKET } from "~/services/storage.server";

// The download route needs a session (its rule in app/access.ts); the real guard is tested in test/access-*.
vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
useTempDataDir();

function multipart(files: Array<{ name: string; content: string | Buffer }>, field = "files") {
  const form = new FormData();
  for (const f of files)
    form.append(field, new Blob([typeof f.content === "string" ? f.content : new Uint8Array(f.content)]), f.name);
  return new Request("http://localhost/api/upload", { method: "POST", body: form });
}

async function keysOnDisk(): Promise<string[]> {
  const keys: string[] = [];
  for await (const e of getLocalStore().list()) keys.push(e.key);
  return keys;
}

describe("registration", () => {
  it("registers a stored file as a job with status 0 and progress 0", async () => {
    const before = Date.now();
    const id = await registerFile({
      originalName: "a.csv",
      key: "2026/01/k.csv",
      bucket: LOCAL_BUCKET,
      user: "ana@example.com",
    });
    const file = await findFileById(id);
    expect(file).toMatchObject({
      originalName: "a.csv",
      originalFile: "2026/01/k.csv",
      bucket: "local",
      user: "ana@example.com",
      clientName: "journey",
      status: 0,
      progress: 0,
      attempts: 0,
      leaseUntil: null,
    });
    expect(file!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(file!.statusChangeDate).toEqual(file!.createdAt);
  });

  it("registers a stored object once: the unique index refuses a second job and the object is kept", async () => {
    await applyIndexes(await testDb.db(), fileIndexes);
    const { key } = await storeAndRegister("unico.csv", "a;b\n");
    const store = getLocalStore();
    await expect(
      registerStoredObject({ originalName: "unico.csv", key, bucket: LOCAL_BUCKET, user: "ana@example.com" }, () =>
        store.delete(key),
      ),
    ).rejects.toBeInstanceOf(FileAlreadyRegisteredError);
    expect(await (await testDb.db()).collection(FILES).countDocuments({ originalFile: key })).toBe(1);
    expect(await store.exists(key)).toBe(true);
    // The same key in another bucket is another object.
    await expect(
      registerFile({ originalName: "unico.csv", key, bucket: "other-bucket", user: "ana@example.com" }),
    ).resolves.toBeDefined();
  });

  it("deletes the stored object when registration fails", async () => {
    const store = getLocalStore();
    const key = generateStorageKey("x.csv");
    await store.putStream(key, Readable.from([Buffer.from("a;b\n")]), { maxBytes: 100 });
    const insert = vi.spyOn(Collection.prototype, "insertOne").mockRejectedValueOnce(new Error("database down"));
    try {
      await expect(
        registerStoredObject({ originalName: "x.csv", key, bucket: LOCAL_BUCKET, user: "u@x.y" }, () =>
          store.delete(key),
        ),
      ).rejects.toThrow("database down");
    } finally {
      insert.mockRestore();
    }
    expect(await store.exists(key)).toBe(false);
  });

  it("an upload whose registration fails answers COD.3 and leaves no file behind", async () => {
    const before = await keysOnDisk();
    const insert = vi.spyOn(Collection.prototype, "insertOne").mockRejectedValueOnce(new Error("database down"));
    try {
      const result = await handleUpload(
        multipart([
          { name: "a.csv", content: "a;b\n" },
          { name: "b.csv", content: "c;d\n" },
        ]),
        "ana@example.com",
      );
      expect(result).toMatchObject({ failure: { code: "COD.3", status: 500 } });
    } finally {
      insert.mockRestore();
    }
    expect(await keysOnDisk()).toEqual(before);
  });

  it("sweeps objects older than an hour that no file record points at", async () => {
    const store = getLocalStore();
    const registered = await storeAndRegister("kept.csv", "a;b\n");
    const orphanKey = generateStorageKey("orphan.csv");
    await store.putStream(orphanKey, Readable.from([Buffer.from("x")]), { maxBytes: 10 });
    const freshKey = generateStorageKey("fresh.csv");
    await store.putStream(freshKey, Readable.from([Buffer.from("x")]), { maxBytes: 10 });
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await fs.utimes(store.resolve(orphanKey), old, old);
    await fs.utimes(store.resolve(registered.key), old, old);
    const partial = path.join(path.dirname(store.resolve(orphanKey)), "abandoned.csv.abc.partial");
    await fs.writeFile(partial, "half");
    await fs.utimes(partial, old, old);

    const removed = await sweepOrphanUploads();
    expect(removed).toContain(orphanKey);
    expect(removed.some((k) => k.endsWith(".partial"))).toBe(true);
    expect(await store.exists(orphanKey)).toBe(false);
    expect(await store.exists(registered.key)).toBe(true);
    expect(await store.exists(freshKey)).toBe(true);
  });
});

describe("the upload route's handler", () => {
  it("streams each `files` part to the store and registers it", async () => {
    const result = await handleUpload(
      multipart([
        { name: "Vendas.CSV", content: "a;b\n1;2\n" },
        { name: "b.xlsx", content: "PK.." },
      ]),
      "ana@example.com",
    );
    expect("files" in result).toBe(true);
    if (!("files" in result)) return;
    expect(result.files.map((f) => f.originalName)).toEqual(["Vendas.CSV", "b.xlsx"]);
    expect(result.files[0].key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}\.csv$/);
    expect(result.files[0].bytes).toBe(8);
    expect(await fs.readFile(getLocalStore().resolve(result.files[0].key), "utf8")).toBe("a;b\n1;2\n");
    const db = await testDb.db();
    expect(
      await db
        .collection(FILES)
        .countDocuments({ originalFile: result.files[0].key, user: "ana@example.com", status: 0, progress: 0 }),
    ).toBe(1);
  });

  it("refuses a forbidden extension before keeping any byte (COD.2)", async () => {
    const before = await keysOnDisk();
    const result = await handleUpload(multipart([{ name: "virus.exe", content: "MZ" }]), "ana@example.com");
    expect(result).toMatchObject({ failure: { code: "COD.2", status: 415, detail: expect.stringContaining("exe") } });
    expect(await keysOnDisk()).toEqual(before);
  });

  it("refuses by Content-Length and while streaming when over the limit (COD.2)", async () => {
    process.env.UPLOAD_MAX_BYTES = "1000";
    resetConfigForTests();
    try {
      const before = await keysOnDisk();
      const declared = new Request("http://localhost/api/upload", {
        method: "POST",
        headers: { "Content-Length": String(5 * 1024 * 1024), "Content-Type": "multipart/form-data; boundary=x" },
        body: "--x--",
      });
      expect(await handleUpload(declared, "a@b.c")).toMatchObject({ failure: { code: "COD.2", status: 413 } });
      const streamed = await handleUpload(multipart([{ name: "big.csv", content: Buffer.alloc(5000, 65) }]), "a@b.c");
      expect(streamed).toMatchObject({ failure: { code: "COD.2", status: 413 } });
      expect(await keysOnDisk()).toEqual(before);
    } finally {
      delete process.env.UPLOAD_MAX_BYTES;
      resetConfigForTests();
    }
  });

  it("limits each file, not the whole post: three files each under the limit pass together (COD.2 only for the big one)", async () => {
    const MIB = 1024 * 1024;
    process.env.UPLOAD_MAX_BYTES = String(MIB);
    resetConfigForTests();
    try {
      const three = multipart(
        ["a.csv", "b.csv", "c.csv"].map((name, i) => ({ name, content: Buffer.alloc(900 * 1024, 65 + i) })),
      );
      // What a browser sends: the whole body with its Content-Length (about 2.7 MiB, over one file's limit).
      const body = Buffer.from(await three.arrayBuffer());
      expect(body.length).toBeGreaterThan(2 * MIB);
      const declared = new Request("http://localhost/api/upload", {
        method: "POST",
        headers: { "Content-Type": three.headers.get("Content-Type")!, "Content-Length": String(body.length) },
        body,
      });
      const result = await handleUpload(declared, "ana@example.com");
      if (!("files" in result)) throw new Error(JSON.stringify(result));
      expect(result.files.map((f) => [f.originalName, f.bytes])).toEqual([
        ["a.csv", 900 * 1024],
        ["b.csv", 900 * 1024],
        ["c.csv", 900 * 1024],
      ]);

      const before = await keysOnDisk();
      const oneTooBig = await handleUpload(
        multipart([
          { name: "ok.csv", content: "x" },
          { name: "big.csv", content: Buffer.alloc(MIB + 1, 66) },
        ]),
        "ana@example.com",
      );
      expect(oneTooBig).toMatchObject({
        failure: { code: "COD.2", status: 413, detail: "Arquivo maior que o limite de 1 MB." },
      });
      expect(await keysOnDisk()).toEqual(before);
    } finally {
      delete process.env.UPLOAD_MAX_BYTES;
      resetConfigForTests();
    }
  });

  it(`caps a post at ${MAX_FILES_PER_POST} files, and its declared size at that many files of the limit`, async () => {
    const before = await keysOnDisk();
    const many = multipart(
      Array.from({ length: MAX_FILES_PER_POST + 1 }, (_, i) => ({ name: `f${i}.csv`, content: "x" })),
    );
    expect(await handleUpload(many, "ana@example.com")).toMatchObject({
      failure: { code: "COD.2", status: 413, detail: `Envie no máximo ${MAX_FILES_PER_POST} arquivos de uma vez.` },
    });
    expect(await keysOnDisk()).toEqual(before);
    const atCap = multipart(
      Array.from({ length: MAX_FILES_PER_POST }, (_, i) => ({ name: `g${i}.csv`, content: "x" })),
    );
    const accepted = await handleUpload(atCap, "ana@example.com");
    expect("files" in accepted && accepted.files.length).toBe(MAX_FILES_PER_POST);

    const maxBytes = 2 * 1024 ** 3;
    const huge = new Request("http://localhost/api/upload", {
      method: "POST",
      headers: {
        "Content-Length": String(maxPostBytes(maxBytes) + 1),
        "Content-Type": "multipart/form-data; boundary=x",
      },
      body: "--x--",
    });
    expect(await handleUpload(huge, "a@b.c")).toMatchObject({
      failure: {
        code: "COD.2",
        status: 413,
        detail: `Envio maior que o permitido (até ${MAX_FILES_PER_POST} arquivos de 2 GB cada).`,
      },
    });
    expect(maxPostBytes(maxBytes)).toBeGreaterThan(MAX_FILES_PER_POST * maxBytes);
  });

  it("answers COD.2 when no `files` part is sent", async () => {
    expect(await handleUpload(multipart([{ name: "a.csv", content: "x" }], "other"), "a@b.c")).toMatchObject({
      failure: { code: "COD.2", status: 400 },
    });
  });
});

describe("downloads through signed links", () => {
  it("serves the file under its original name, and refuses tampered or expired links", async () => {
    const { key } = await storeAndRegister("relatório.csv", "x;y\n1;2\n");
    const url = await getDownloadUrl(LOCAL_BUCKET, key, "relatório.csv");
    expect(url).toMatch(/^\/download\/[\w-]+\.[\w-]+$/);
    const token = url.slice("/download/".length);
    const call = (t: string, referer?: string) =>
      downloadLoader({
        params: { token: t },
        request: new Request(`http://localhost/download/${t}`, { headers: referer ? { Referer: referer } : {} }),
        context: {},
      });
    const response = await call(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toContain("filename*=UTF-8''relat%C3%B3rio.csv");
    expect(await response.text()).toBe("x;y\n1;2\n");

    // A failed link goes back to the page it came from with the spec's alert, never to a bare error page.
    const tampered = await call(
      `${token.slice(0, 5)}${token[5] === "A" ? "B" : "A"}${token.slice(6)}`,
      "http://localhost/repo/format?page=2",
    );
    expect(tampered).toRedirectTo("/repo/format?page=2");
    await expect(tampered).toSendToast({ type: "error", description: "Ocorreu um erro ao fazer o download." });
    const expiredUrl = await getDownloadUrl(LOCAL_BUCKET, key, "r.csv", Date.now() - 6 * 60 * 1000);
    expect(await call(expiredUrl.slice("/download/".length))).toRedirectTo("/");
    // Another site's Referer is not followed.
    expect(await call(expiredUrl.slice("/download/".length), "https://evil.example/x")).toRedirectTo("/");
    await fs.rm(path.join(getLocalStore().root, key));
    const gone = await call(token, "http://localhost/repo/format");
    expect(gone).toRedirectTo("/repo/format");
    await expect(gone).toSendToast({ type: "error", description: "Ocorreu um erro ao fazer o download." });

    // Without a session even a valid link is refused (sign-in first).
    const signedIn = currentUser.type;
    currentUser.type = null;
    try {
      await expect(call(token)).rejects.toMatchObject({ status: 302 });
    } finally {
      currentUser.type = signedIn;
    }
    await expect(getDownloadUrl(LOCAL_BUCKET, "../../etc/passwd", "p")).rejects.toThrow();
  });
});

describe("retry and listing", () => {
  it("lets only the owner or a SYSTEM ADMIN retry a failed job, and records who did", async () => {
    const { id } = await storeAndRegister("falhou.csv", "x\n", "owner@example.com");
    const db = await testDb.db();
    // A failure a retry can get past (a stall); a refusal of the file is never sent back.
    await db
      .collection(FILES)
      .updateOne(
        { _id: id },
        { $set: { status: 2, progress: 100, message: "Layout não reconhecido", agent: "w", leaseUntil: null } },
      );
    expect(await retryJob(String(id), { email: "owner@example.com", type: "USER BRONZE" })).toEqual({
      ok: false,
      reason: "not-retryable",
    });
    await db.collection(FILES).updateOne(
      { _id: id },
      {
        $set: {
          status: 3,
          retryable: true,
          message: "Processamento interrompido: a leitura do arquivo ficou parada",
        },
      },
    );
    expect(await retryJob(String(id), { email: "other@example.com", type: "USER GOLD" })).toEqual({
      ok: false,
      reason: "forbidden",
    });
    expect(await retryJob("not-an-id", { email: "owner@example.com", type: "USER BRONZE" })).toEqual({
      ok: false,
      reason: "invalid-id",
    });
    expect(await retryJob(String(id), { email: "owner@example.com", type: "USER BRONZE" })).toEqual({ ok: true });
    expect(await findFileById(id)).toMatchObject({
      status: 0,
      progress: 0,
      message: "",
      agent: "",
      leaseUntil: null,
      retriedBy: "owner@example.com",
    });
    expect(await retryJob(String(id), { email: "owner@example.com", type: "USER BRONZE" })).toEqual({
      ok: false,
      reason: "not-failed",
    });
    await db.collection(FILES).updateOne({ _id: id }, { $set: { status: 3, progress: 100 } });
    expect(await retryJob(id, { email: "root@example.com", type: "SYSTEM ADMIN" })).toEqual({ ok: true });
    expect(await findFileById(id)).toMatchObject({ retriedBy: "root@example.com", retryCount: 2 });
  });

  it("pages files newest status change first, with the total, and filters by user", async () => {
    const db = await testDb.db();
    await db.collection(FILES).deleteMany({});
    const base = Date.UTC(2026, 0, 1);
    await db.collection(FILES).insertMany(
      Array.from({ length: 45 }, (_, i) =>
        endedFileRecord({
          originalName: `f${i}.csv`,
          originalFile: `k${i}`,
          user: i % 3 === 0 ? "ana@x.y" : "bia@x.y",
          clientName: "journey",
          statusChangeDate: new Date(base + i * 1000),
          createdAt: new Date(base),
        }),
      ),
    );
    const first = await listFilesPage({ page: 1, pageSize: 20 });
    expect(first).toMatchObject({ total: 45, page: 1, pageSize: 20, pageCount: 3 });
    expect(first.items[0]).toMatchObject({ originalName: "f44.csv", status: 0, progress: 100, message: "ok" });
    expect(Object.keys(first.items[0]).sort()).toEqual([
      "agent",
      "bucket",
      "createdAt",
      "id",
      "message",
      "nokRows",
      "nokRowsRecorded",
      "originalFile",
      "originalName",
      "progress",
      "retryable",
      "status",
      "statusChangeDate",
      "user",
    ]);
    const third = await listFilesPage({ page: 3, pageSize: 20 });
    expect(third.items.map((f) => f.originalName)).toEqual(["f4.csv", "f3.csv", "f2.csv", "f1.csv", "f0.csv"]);
    expect((await listFilesPage({ page: 1, pageSize: 40 })).items).toHaveLength(40);
    expect((await listFilesPage({ page: 1, pageSize: 33 })).pageSize).toBe(20);
    expect((await listFilesPage({ page: 1, pageSize: 20, user: "ana@x.y" })).total).toBe(15);
    expect(await countFiles("bia@x.y")).toBe(30);
  });
});
