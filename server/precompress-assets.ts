/**
 * Build step: writes a Brotli (quality 11) and a gzip (level 9) copy beside every compressible file
 * of build/client/assets, once, so the host serves them without compressing per request
 * (server/precompressed.ts). Run by `npm run build`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html|map|woff)$/i;

export function precompressDirectory(dir: string): { files: number; bytes: number; br: number; gz: number } {
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const file = path.join(d, name);
      if (statSync(file).isDirectory()) {
        walk(file);
        continue;
      }
      if (!COMPRESSIBLE.test(name) || statSync(file).size < 1024) continue;
      const data = readFileSync(file);
      const br = brotliCompressSync(data, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      });
      const gz = gzipSync(data, { level: 9 });
      writeFileSync(`${file}.br`, br);
      writeFileSync(`${file}.gz`, gz);
      totals.files++;
      totals.bytes += data.length;
      totals.br += br.length;
      totals.gz += gz.length;
    }
  };
  walk(dir);
  return totals;
}

if (process.argv[1] && path.basename(process.argv[1]) === "precompress-assets.ts") {
  const t = precompressDirectory(path.resolve("build/client/assets"));
  const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
  console.log(`precompressed ${t.files} assets: ${kb(t.bytes)} → brotli ${kb(t.br)}, gzip ${kb(t.gz)}`);
}
