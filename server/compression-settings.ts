import { brotliCompressSync, gzipSync, constants as zlibConstants } from "node:zlib";
import compression from "compression";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import Negotiator from "negotiator";

/**
 * How pages and data are compressed per response. Static assets are compressed once at build, at the highest
 * settings (server/precompress-assets.ts). Browsers ask for Brotli; gzip is for the clients that do not.
 *
 * `brotliWindowBits` bounds the memory of each response's Brotli encoder. With Brotli's default window (2^22,
 * 4 MB) every response's encoder takes a few MB outside the JavaScript heap, which V8 counts as external memory:
 * past 64 MB of it V8 starts a full collection of the web process's heap, and under load such collections took a
 * large share of the web process's main thread. A 2^18 window (256 kB) causes none and still holds the largest of
 * the portal's pages whole, so pages compress to the same bytes. `bench/compression/run.ts` measures every setting on
 * the portal's pages (size, CPU, and full collections per 1,000 streamed responses); its figures are in
 * docs/performance.md, the choice in docs/decisions.md ("Platform and hosting").
 */
export const DYNAMIC_COMPRESSION = { gzipLevel: 3, brotliQuality: 3, brotliWindowBits: 18 } as const;

/** Brotli encoder parameters: a quality, and a window of 2^windowBits (Brotli's default, 2^22, when not given). */
export function brotliParams(quality: number, windowBits?: number): Record<number, number> {
  return {
    [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
    ...(windowBits ? { [zlibConstants.BROTLI_PARAM_LGWIN]: windowBits } : {}),
  };
}

/**
 * Responses up to this size are compressed whole, in one call on the main thread, when they end: a streamed
 * response's encoder hands every written chunk (and every flush: Remix flushes after each chunk) to the thread pool
 * and back, which under load cost a page several times the compression itself (`bench/compression/run.ts`, "whole").
 * Larger ones, and those whose headers went out early, stream as before. The bound is Brotli's window: what it holds
 * compresses no worse whole than streamed.
 */
export const WHOLE_MAX = 2 ** DYNAMIC_COMPRESSION.brotliWindowBits;
/** The portal's Brotli parameters, for the streaming middleware and whole responses alike. */
const BROTLI_PARAMS = brotliParams(DYNAMIC_COMPRESSION.brotliQuality, DYNAMIC_COMPRESSION.brotliWindowBits);
/** Below this, a body is sent as it is (the compression middleware's default threshold). */
const THRESHOLD = 1024;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** The codings the compression middleware offers, and those it prefers at equal quality (Brotli, then gzip). */
const OFFERED = ["br", "gzip", "deflate", "identity"];
const PREFERRED = ["br", "gzip"];

/**
 * The encoding the compression middleware would choose for an Accept-Encoding header, when it is Brotli or gzip (null
 * otherwise: nothing acceptable, or deflate or identity preferred): its own negotiator, asked as it asks.
 */
export function wholeEncoding(header: string | undefined): "br" | "gzip" | null {
  const chosen = new Negotiator({ headers: { "accept-encoding": header } }).encoding(OFFERED, PREFERRED);
  return chosen === "br" || chosen === "gzip" ? chosen : null;
}

/**
 * Keeps what a response writes (its flushes do nothing) until it ends or passes WHOLE_MAX. Ended within it, a
 * compressible body is compressed in one synchronous call and sent with its length; otherwise what was kept goes on
 * to the streaming middleware below, which decides as it always has.
 */
function compressWhole(req: Request, res: Response, next: NextFunction) {
  if (req.method === "HEAD") return next();
  type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;
  type End = (chunk?: unknown, encoding?: unknown, callback?: unknown) => Response;
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as End;
  const flushable = res as { flush?: () => void };
  const flush = flushable.flush?.bind(res);
  let kept: Buffer[] | null = [];
  let size = 0;
  /** Sends on what was kept; false when the socket asks to wait (as `write` says). */
  const release = () => {
    const chunks = kept ?? [];
    kept = null;
    let flowing = true;
    for (const chunk of chunks) flowing = write(chunk);
    return flowing;
  };
  const toBuffer = (chunk: unknown, encoding: unknown): Buffer =>
    typeof chunk === "string"
      ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
      : Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from((chunk as Uint8Array).buffer, (chunk as Uint8Array).byteOffset, (chunk as Uint8Array).byteLength);
  flushable.flush = () => {
    if (!kept) flush?.();
  };
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    // Its headers are set by its first write: a body that will not be compressed (a download, an image, an asset
    // compressed at build) is not kept at all.
    if (kept?.length === 0 && !compressible(req, res)) kept = null;
    if (!kept || res.headersSent) {
      release();
      return write(chunk, encoding, callback);
    }
    const buffer = toBuffer(chunk, encoding);
    kept.push(buffer);
    size += buffer.length;
    const flowing = size > WHOLE_MAX ? release() : true;
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") process.nextTick(done as () => void);
    return flowing;
  }) as Response["write"];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    if (!kept || res.headersSent) {
      release();
      return end(chunk, encoding, callback);
    }
    const done = [chunk, encoding, callback].find((a) => typeof a === "function") as (() => void) | undefined;
    if (done) res.once("finish", done);
    const last =
      chunk === undefined || chunk === null || typeof chunk === "function" ? [] : [toBuffer(chunk, encoding)];
    const body = Buffer.concat([...kept, ...last]);
    kept = null;
    const encoded = body.length >= THRESHOLD && compressible(req, res) ? encode(body, req) : null;
    if (!encoded) return body.length > 0 ? end(body) : end();
    res.vary("Accept-Encoding");
    res.setHeader("Content-Encoding", encoded.encoding);
    res.setHeader("Content-Length", encoded.body.length);
    return end(encoded.body);
  }) as Response["end"];
  next();
}

function compressible(req: Request, res: Response): boolean {
  const encoding = res.getHeader("Content-Encoding");
  if (encoding !== undefined && encoding !== "identity") return false;
  if (res.statusCode === 204 || res.statusCode === 304) return false;
  if (NO_TRANSFORM.test(String(res.getHeader("Cache-Control") ?? ""))) return false;
  return compression.filter(req, res);
}

function encode(body: Buffer, req: Request): { encoding: "br" | "gzip"; body: Buffer } | null {
  const encoding = wholeEncoding(req.headers["accept-encoding"]);
  if (encoding === "br") {
    return { encoding, body: brotliCompressSync(body, { params: BROTLI_PARAMS }) };
  }
  if (encoding === "gzip") return { encoding, body: gzipSync(body, { level: DYNAMIC_COMPRESSION.gzipLevel }) };
  return null;
}

/**
 * The middleware that compresses pages and data (server/app.ts): whole responses in one call (compressWhole), and
 * the streaming `compression` middleware below it for the rest.
 */
export function dynamicCompression(): RequestHandler[] {
  const streaming = compression({
    level: DYNAMIC_COMPRESSION.gzipLevel,
    brotli: { params: BROTLI_PARAMS },
  });
  return [streaming, compressWhole];
}
