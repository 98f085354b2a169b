/**
 * JS each route loads on a full page load per the built manifest (bench/bundle/manifest.ts: the entry, then every
 * route module of the matched chain with their static imports), gzip-compressed, against its budget (110 kB; a
 * native dashboard 140 kB; 1 kB = 1,000 bytes). Chunks loaded later by dynamic import are listed apart
 * (bench/bundle/chromium.ts counts what a browser fetches). Exits non-zero when a route is over.
 * Run after `npm run build`: npx tsx bench/bundle/run.ts
 */
import os from "node:os";
import { entryFiles, kB, lazyChunks, PAGE_BUDGET, readClientBuild, routeFigures } from "./manifest";

const build = readClientBuild();
if (!build) {
  console.error("No build/client/assets/manifest-*.js: run `npm run build` first.");
  process.exit(2);
}
const rows = routeFigures(build);
const entry = entryFiles(build.manifest).reduce((s, f) => s + build.gzipped(f), 0);
console.log(
  `bundle budget per route: ${kB(PAGE_BUDGET)} kB gzip, a native dashboard more (entry alone ${kB(entry)} kB); load average ${os.loadavg()[0].toFixed(2)}`,
);
console.log("| route | files | JS gzip kB | budget kB | ratio to budget |");
console.log("|---|---|---|---|---|");
for (const r of rows)
  console.log(
    `| ${r.route} | ${r.files} | ${kB(r.bytes)} | ${kB(r.budget)} | ${(r.bytes / r.budget).toFixed(2)}${r.bytes > r.budget ? " ✗" : ""} |`,
  );
const lazy = lazyChunks(build);
console.log(
  `\nloaded later (dynamic import), gzip kB: ${
    lazy
      .slice(0, 8)
      .map((l) => `${l.file} ${kB(l.bytes)}`)
      .join(", ") || "none"
  }`,
);
const over = rows.filter((r) => r.bytes > r.budget);
console.log(over.length === 0 ? `all ${rows.length} routes within budget` : `${over.length} route(s) over budget`);
process.exit(over.length === 0 ? 0 : 1);
