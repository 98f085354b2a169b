import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertUploadAllowed, generateStorageKey, isStorageKey, UploadRejectedError } from "./keys.server";
import { LocalObjectStore, StorageKeyError, StoredObjectNotFoundError } from "./local.server";
import { DOWNLOAD_LINK_TTL_MS, signDownloadToken, verifyDownloadToken } from "./signed-link.server";

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
    expect(() => assertUploadAllowed("script.exe", 10, limits)).toThrow(
      "Formato não suportado para processamento (.exe); envie um destes: csv, xlsx.",
    );
    expect(() => assertUploadAllowed("metas.xls", 10, limits)).toThrow(
      "Formato não suportado para processamento (.xls); envie um destes: csv, xlsx.",
    );
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
    for (const key of [
      "../secret.txt",
      "../../etc/passwd",
      "2026/01/../../../secret.txt",
      "/etc/passwd",
      "..",
      "",
      "a\0b",
      "..\\secret.txt".replaceAll("\\", "/"),
    ]) {
      expect(() => store.resolve(key), key).toThrow(StorageKeyError);
      await expect(store.openReadStream(key)).rejects.toThrow(StorageKeyError);
      await expect(store.delete(key)).rejects.toThrow(StorageKeyError);
    }
    await expect(store.putStream("../escape.csv", chunks(1, 10), { maxBytes: 100 })).rejects.toThrow(StorageKeyError);
    await expect(store.putBytes("../escape.csv", Buffer.from("x"))).rejects.toThrow(StorageKeyError);
    await expect(store.linkCopy("../secret.txt", "copies/secret.txt")).rejects.toThrow(StorageKeyError);
    await expect(store.linkCopy("copies/a.txt", "../escape.csv")).rejects.toThrow(StorageKeyError);
    expect(await fs.readFile(secret, "utf8")).toBe("top secret");
    await expect(fs.access(path.join(dir, "escape.csv"))).rejects.toThrow();
  });
});

describe("LocalObjectStore whole objects and copies", () => {
  const read = async (key: string) => {
    const { stream } = await store.openReadStream(key);
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return Buffer.concat(parts).toString();
  };
  const keysUnder = async (prefix: string) => {
    const keys: string[] = [];
    for await (const e of store.list()) if (e.key.startsWith(prefix)) keys.push(e.key);
    return keys.sort();
  };

  it("writes bytes held in memory, replaces them, and leaves no partial write", async () => {
    await store.putBytes("whole/a/one.txt", Buffer.from("first"));
    expect(await read("whole/a/one.txt")).toBe("first");
    await store.putBytes("whole/a/one.txt", Buffer.from("second"));
    expect(await read("whole/a/one.txt")).toBe("second");
    expect(await keysUnder("whole/")).toEqual(["whole/a/one.txt"]);
  });

  it("makes a folder removed since its first write again", async () => {
    await store.putBytes("gone/a/one.txt", Buffer.from("1"));
    await fs.rm(path.join(store.root, "gone"), { recursive: true });
    await store.putBytes("gone/a/two.txt", Buffer.from("2"));
    await store.linkCopy("gone/a/two.txt", "gone/b/three.txt");
    expect(await keysUnder("gone/")).toEqual(["gone/a/two.txt", "gone/b/three.txt"]);
    await fs.rm(path.join(store.root, "gone", "b"), { recursive: true });
    await store.putStream("gone/b/four.txt", chunks(1, 4), { maxBytes: 10 });
    expect(await keysUnder("gone/")).toEqual(["gone/a/two.txt", "gone/b/four.txt"]);
  });

  it("copies an object under a second key that keeps its bytes when the first is replaced or removed", async () => {
    await store.putBytes("copies/source.txt", Buffer.from("shared bytes"));
    await store.linkCopy("copies/source.txt", "copies/x/copy.txt");
    expect(await read("copies/x/copy.txt")).toBe("shared bytes");

    await store.putBytes("copies/source.txt", Buffer.from("new bytes"));
    expect(await read("copies/x/copy.txt")).toBe("shared bytes");
    await store.putStream("copies/x/copy.txt", chunks(1, 3), { maxBytes: 10 });
    expect(await read("copies/source.txt")).toBe("new bytes");

    await store.linkCopy("copies/source.txt", "copies/x/copy.txt");
    await store.delete("copies/source.txt");
    expect(await read("copies/x/copy.txt")).toBe("new bytes");
    expect(await keysUnder("copies/")).toEqual(["copies/x/copy.txt"]);
  });

  it("refuses to copy a missing object and leaves nothing behind", async () => {
    await expect(store.linkCopy("missing/none.txt", "missing/copy.txt")).rejects.toThrow(StoredObjectNotFoundError);
    expect(await keysUnder("missing/")).toEqual([]);
  });
});

describe("signed download links", () => {
  const secret = "s".repeat(40);
  const grant = {
    bucket: "local",
    key: "2026/01/x.csv",
    filename: "x.csv",
    expiresAt: Date.now() + DOWNLOAD_LINK_TTL_MS,
  };

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
    const forged = Buffer.from(
      JSON.stringify({ b: "local", k: "../../etc/passwd", f: "x", e: grant.expiresAt }),
      "utf8",
    ).toString("base64url");
    expect(verifyDownloadToken(`${forged}.${sig}`, secret)).toEqual({ ok: false, reason: "signature" });
    expect(verifyDownloadToken(`${payload}.${sig.slice(0, -2)}AA`, secret).ok).toBe(false);
    expect(verifyDownloadToken(token, "o".repeat(40))).toEqual({ ok: false, reason: "signature" });
    expect(verifyDownloadToken("garbage", secret)).toEqual({ ok: false, reason: "malformed" });
  });
});
