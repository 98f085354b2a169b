/**
 * How pages and data are compressed per response (`compression` in server/index.ts). Static assets are
 * compressed once at build, at the highest settings (server/precompress-assets.ts). Browsers ask for Brotli;
 * gzip is for the clients that do not. `bench/compression/run.ts` measures every setting on the portal's pages; the figures behind
 * this choice are in docs/decisions.md ("Pages compressed with Brotli 3 and gzip 3").
 */
export const DYNAMIC_COMPRESSION = { gzipLevel: 3, brotliQuality: 3 } as const;
