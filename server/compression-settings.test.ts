import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dynamicCompression, WHOLE_MAX, wholeEncoding } from "./compression-settings";

// Page-like bodies written in chunks with a flush after each, as Remix sends a document: one within WHOLE_MAX, one
// larger.
const pageOf = (count: number) =>
  `<!DOCTYPE html><html><body><table>${Array.from(
    { length: count },
    (_, i) => `<tr><td>${i}</td><td>Ipê Dourado – linha ${i * 7919}</td></tr>`,
  ).join("")}</table></body></html>`;
const page = pageOf(3000);
const bigPage = pageOf(9000);
let base = "";
let plainBase = "";
let close: () => void = () => undefined;
let writeCallbacks = 0;

function sendInChunks(res: express.Response, body: string) {
  res.type("html");
  for (let i = 0; i < body.length; i += 8192) {
    // As Remix writes: Uint8Arrays, not Buffers.
    res.write(new TextEncoder().encode(body.slice(i, i + 8192)), () => writeCallbacks++);
    (res as unknown as { flush: () => void }).flush();
  }
  res.end();
}

beforeAll(async () => {
  const app = express();
  app.use(dynamicCompression());
  app.get("/page", (_req, res) => sendInChunks(res, page));
  app.get("/big", (_req, res) => sendInChunks(res, bigPage));
  app.get("/small", (_req, res) => res.type("html").send("<p>oi</p>"));
  app.get("/encoded", (_req, res) => res.type("html").set("Content-Encoding", "br").send(Buffer.alloc(4000, 7)));
  app.get("/json", (_req, res) => res.json({ rows: page.slice(0, 5000) }));
  // The compression middleware alone: what the portal answered before whole responses, for comparison.
  const plain = express();
  plain.use(compression());
  plain.get("/page", (_req, res) => res.type("html").send(page));
  const server = app.listen(0);
  const plainServer = plain.listen(0);
  await Promise.all([server, plainServer].map((s) => new Promise((r) => s.once("listening", r))));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  plainBase = `http://127.0.0.1:${(plainServer.address() as AddressInfo).port}`;
  close = () => {
    server.close();
    plainServer.close();
  };
});
afterAll(() => close());

type Raw = { encoding: string | undefined; length: string | undefined; vary: string | undefined; body: Buffer };

/** The raw (still encoded) response, as a browser receives it. */
function getRaw(acceptEncoding: string, path = "/page", at = base): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(`${at}${path}`, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            encoding: res.headers["content-encoding"],
            length: res.headers["content-length"],
            vary: res.headers.vary,
            body: Buffer.concat(chunks),
          }),
        );
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

  it("compresses a response that ends within WHOLE_MAX in one piece, with its length; a larger one streams", async () => {
    expect(Buffer.byteLength(page)).toBeLessThan(WHOLE_MAX);
    expect(Buffer.byteLength(bigPage)).toBeGreaterThan(WHOLE_MAX);
    writeCallbacks = 0;
    const whole = await getRaw("gzip, deflate, br");
    expect(whole.length).toBe(String(whole.body.length));
    expect(whole.vary).toBe("Accept-Encoding");
    expect(writeCallbacks).toBe(Math.ceil(page.length / 8192));
    const big = await getRaw("gzip, deflate, br", "/big");
    expect([big.encoding, big.length]).toEqual(["br", undefined]);
    expect(brotliDecompressSync(big.body).toString()).toBe(bigPage);
    const gz = await getRaw("gzip", "/big");
    expect(gunzipSync(gz.body).toString()).toBe(bigPage);
  });

  it("leaves small bodies, bodies already encoded and uncompressible ones as they are; data is compressed too", async () => {
    const small = await getRaw("br", "/small");
    expect([small.encoding, small.body.toString()]).toEqual([undefined, "<p>oi</p>"]);
    const encoded = await getRaw("gzip, br", "/encoded");
    expect([encoded.encoding, encoded.body]).toEqual(["br", Buffer.alloc(4000, 7)]);
    const json = await getRaw("br", "/json");
    expect(json.encoding).toBe("br");
    expect(JSON.parse(brotliDecompressSync(json.body).toString())).toEqual({ rows: page.slice(0, 5000) });
  });

  it("chooses the encoding the compression middleware chooses, for any Accept-Encoding", async () => {
    const names = ["br", "gzip", "deflate", "identity", "*", "x-zip", "BR"];
    const qualities = ["", ";q=0", ";q=1", ";q=0.5", ";q=0.001", ";q=abc", " ; q=0.8"];
    let seed = 7;
    const pick = <T>(list: T[]) => {
      seed = (seed * 48271) % 2147483647;
      return list[seed % list.length];
    };
    const headers = [
      "",
      " ",
      ",",
      "br;q",
      ...Array.from({ length: 300 }, () =>
        Array.from({ length: 1 + (pick([0, 1, 2, 3]) as number) }, () => `${pick(names)}${pick(qualities)}`).join(
          pick([",", ", ", " ,"]),
        ),
      ),
    ];
    for (const header of headers) {
      const chosen = (await getRaw(header, "/page", plainBase)).encoding ?? null;
      const expected = chosen === "br" || chosen === "gzip" ? chosen : null;
      expect([header, wholeEncoding(header)]).toEqual([header, expected]);
      const ours = await getRaw(header);
      expect([header, ours.encoding ?? null]).toEqual([header, chosen]);
    }
  });
});
