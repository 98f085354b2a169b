import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dynamicCompression } from "./compression-settings";

// A page-like body written in chunks, as React streams a document.
const rows = Array.from({ length: 3000 }, (_, i) => `<tr><td>${i}</td><td>Ipê Dourado – linha ${i * 7919}</td></tr>`);
const page = `<!DOCTYPE html><html><body><table>${rows.join("")}</table></body></html>`;
let base = "";
let close: () => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.use(dynamicCompression());
  app.get("/page", (_req, res) => {
    res.type("html");
    for (let i = 0; i < page.length; i += 8192) res.write(page.slice(i, i + 8192));
    res.end();
  });
  const server = app.listen(0);
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

/** The raw (still encoded) response, as a browser receives it. */
function getRaw(acceptEncoding: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/page`, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

/** The window a Brotli stream declares in its first bits (RFC 7932, section 9.1), as a power of two. */
function brotliWindowBits(stream: Buffer): number {
  const first = stream[0];
  if ((first & 1) === 0) return 16;
  const n = (first >> 1) & 7;
  if (n !== 0) return 17 + n;
  const m = (first >> 4) & 7;
  return m === 0 ? 17 : 8 + m;
}

describe("dynamic compression", () => {
  it("answers a browser with Brotli whose window is 2^18, so each response's encoder stays small", async () => {
    const { encoding, body } = await getRaw("gzip, deflate, br");
    expect(encoding).toBe("br");
    expect(brotliWindowBits(body)).toBe(18);
    expect(brotliDecompressSync(body).toString()).toBe(page);
    expect(body.length).toBeLessThan(Buffer.byteLength(page) / 4);
  });

  it("answers gzip to a client that does not accept Brotli, and the plain page to one that accepts neither", async () => {
    const gz = await getRaw("gzip");
    expect(gz.encoding).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(page);
    const plain = await getRaw("identity");
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
  });
});
