import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertUploadAllowed, generateStorageKey, isStorageKey, UploadRejectedError } from "./keys.server";
import { LocalObjectStore, StorageKeyError } from "./local.server";
import { signDownloadToken, verifyDownloadToken, DOWNLOAD_LINK_TTL_MS } from "./signed-link.server";

let dir: string;
let store: LocalObjectStore;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "jp-store-"));
  store = new LocalObjectStore(path.join(dir, "uploads"));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

function chunks(count: number, size: number) {
  return Readable.from(
    (function* () {
      for (let i = 0; i < count; i++) yield Buffer.alloc(size, i % 251);
    })(),
  );
}

describe("storage keys", () => {
  it("generates yyyy/mm/uuid.ext keys that keep the lower-cased extension", () => {
    const key = generateStorageKey("Relatório Final.XLSX", new Date(Date.UTC(2026, 2, 5)));
    expect(key).toMatch(/^2026\/03\/[0-9a-f-]{36}\.xlsx$/);
    expect(isStorageKey(key)).toBe(true);
    expect(generateStorageKey("a.csv")).not.toBe(generateStorageKey("a.csv"));
  });

  it("refuses extensions off the allow-list and declared sizes over the limit", () => {
    const limits = { maxBytes: 100, extensions: ["csv", "xlsx"] };
    expect(assertUploadAllowed("data.CSV", 50, limits)).toBe("csv");
    expect(() => assertUploadAllowed("script.exe", 10, limits)).toThrow(/Extensão "exe" não permitida/);
    expect(() => assertUploadAllowed("noext", 10, limits)).toThrow(UploadRejectedError);
    expect(() => assertUploadAllowed("big.csv", 101, limits)).toThrow(/maior que o limite/);
  });
});

describe("LocalObjectStore", () => {
  it("streams a file to disk and reads it back", async () => {
    const key = generateStorageKey("a.csv");
    const { bytes } = await store.putStream(key, chunks(40, 64 * 1024), { maxBytes: 10 * 1024 * 1024 });
    expect(bytes).toBe(40 * 64 * 1024);
    const { stream, size } = await store.openReadStream(key);
    expect(size).toBe(bytes);
    let read = 0;
    for await (const c of stream) read += (c as Buffer).length;
    expect(read).toBe(bytes);
  });

  it("stops at the size limit while streaming and keeps nothing", async () => {
    const key = generateStorageKey("big.csv");
    await expect(store.putStream(key, chunks(10, 1024), { maxBytes: 5000 })).rejects.toThrow(/maior que o limite/);
    expect(await store.exists(key)).toBe(false);
    const leftovers: string[] = [];
    for await (const e of store.list()) leftovers.push(e.key);
    expect(leftovers.some((k) => k.startsWith(key))).toBe(false);
  });

  it("makes path traversal impossible", async () => {
    const secret = path.join(dir, "secret.txt");
    await fs.writeFile(secret, "top secret");
    for (const key of ["../secret.txt", "../../etc/passwd", "2026/01/../../../secret.txt", "/etc/passwd", "..", "", "a\0b", "..\\secret.txt".replaceAll("\\", "/")]) {
      expect(() => store.resolve(key), key).toThrow(StorageKeyError);
      await expect(store.openReadStream(key)).rejects.toThrow(StorageKeyError);
      await expect(store.delete(key)).rejects.toThrow(StorageKeyError);
    }
    await expect(store.putStream("../escape.csv", chunks(1, 10), { maxBytes: 100 })).rejects.toThrow(StorageKeyError);
    expect(await fs.readFile(secret, "utf8")).toBe("top secret");
    await expect(fs.access(path.join(dir, "escape.csv"))).rejects.toThrow();
  });
});

describe("signed download links", () => {
  const secret = "s".repeat(40);
  const grant = { bucket: "local", key: "2026/01/x.csv", filename: "x.csv", expiresAt: Date.now() + DOWNLOAD_LINK_TTL_MS };

  it("accepts a valid token", () => {
    const check = verifyDownloadToken(signDownloadToken(grant, secret), secret);
    expect(check).toEqual({ ok: true, grant });
  });

  it("refuses an expired token", () => {
    const token = signDownloadToken(grant, secret);
    expect(verifyDownloadToken(token, secret, grant.expiresAt + 1)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a tampered token or another secret", () => {
    const token = signDownloadToken(grant, secret);
    const [payload, sig] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ b: "local", k: "../../etc/passwd", f: "x", e: grant.expiresAt }), "utf8").toString("base64url");
    expect(verifyDownloadToken(`${forged}.${sig}`, secret)).toEqual({ ok: false, reason: "signature" });
    expect(verifyDownloadToken(`${payload}.${sig.slice(0, -2)}AA`, secret).ok).toBe(false);
    expect(verifyDownloadToken(token, "o".repeat(40))).toEqual({ ok: false, reason: "signature" });
    expect(verifyDownloadToken("garbage", secret)).toEqual({ ok: false, reason: "malformed" });
  });
});
