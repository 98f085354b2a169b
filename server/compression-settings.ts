import { constants as zlibConstants } from "node:zlib";
import compression from "compression";

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

/** The middleware that compresses pages and data (server/index.ts). */
export function dynamicCompression() {
  return compression({
    level: DYNAMIC_COMPRESSION.gzipLevel,
    brotli: { params: brotliParams(DYNAMIC_COMPRESSION.brotliQuality, DYNAMIC_COMPRESSION.brotliWindowBits) },
  });
}
