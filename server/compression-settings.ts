/**
 * How pages and data are compressed per response (`compression` in server/index.ts). Static assets are
 * compressed once at build, at the highest settings (server/precompress-assets.ts). Browsers ask for Brotli;
 * gzip is for the clients that do not. `bench/compression/run.ts` measures every setting on the portal's pages.
 */
export const DYNAMIC_COMPRESSION = { gzipLevel: 3, brotliQuality: 3 } as const;
// Stop 26 (bench/compression, 28 pages at scale 10): Brotli 3 takes 0.63× the CPU of Brotli 4 for 1.06× the bytes,
// gzip 3 0.44× the CPU of gzip 6 for 1.07×; the forecast grid's 71 kB: Brotli 4 0.42 ms → Brotli 3 0.19 ms, 9.8 → 10.6 kB.
