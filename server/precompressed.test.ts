import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressDirectory } from "./precompress-assets";
import { pickEncoding, precompressed } from "./precompressed";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "precompressed-"));
const body = `export const x = ${JSON.stringify("a".repeat(4000))};\n`;
let base = "";
let close: () => void = () => undefined;

beforeAll(async () => {
  fs.writeFileSync(path.join(dir, "app-123.js"), body);
  expect(precompressDirectory(dir).files).toBe(1);
  const app = express();
  app.use("/assets", precompressed(dir, "public, max-age=31536000, immutable"));
  app.use("/assets", express.static(dir));
  const server = app.listen(0);
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => {
  close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function get(accept: string) {
  const res = await fetch(`${base}/assets/app-123.js`, { headers: { "accept-encoding": accept } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("precompressed assets", () => {
  it("picks br, then gzip, honouring q=0", () => {
    expect(pickEncoding("gzip, deflate, br")).toEqual(["br", "gzip"]);
    expect(pickEncoding("gzip;q=1, br;q=0")).toEqual(["gzip"]);
    expect(pickEncoding("identity")).toEqual([]);
    expect(pickEncoding(undefined)).toEqual([]);
  });

  it("serves the copy the browser accepts, with its encoding and type, and the plain file otherwise", async () => {
    const br = await get("gzip, deflate, br");
    expect(br.res.headers.get("content-encoding")).toBe("br");
    expect(br.res.headers.get("content-type")).toMatch(/text\/javascript/);
    expect(br.res.headers.get("vary")).toMatch(/Accept-Encoding/);
    // fetch decodes the body; the length says the precompressed copy was sent.
    expect(br.bytes.toString()).toBe(body);
    expect(Number(br.res.headers.get("content-length"))).toBe(fs.statSync(path.join(dir, "app-123.js.br")).size);
    expect(brotliDecompressSync(fs.readFileSync(path.join(dir, "app-123.js.br"))).toString()).toBe(body);
    const gz = await get("gzip");
    expect(gz.res.headers.get("content-encoding")).toBe("gzip");
    expect(gz.bytes.toString()).toBe(body);
    expect(Number(gz.res.headers.get("content-length"))).toBe(fs.statSync(path.join(dir, "app-123.js.gz")).size);
    expect(gunzipSync(fs.readFileSync(path.join(dir, "app-123.js.gz"))).toString()).toBe(body);
    const plain = await get("identity");
    expect(plain.res.headers.get("content-encoding")).toBeNull();
    expect(plain.bytes.toString()).toBe(body);
  });
});
