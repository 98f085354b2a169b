/**
 * JS each route loads on a full page load (the entry, then every route module of the matched chain:
 * root → layouts → the route, with their static imports), gzip-compressed, against the 120 kB
 * budget (1 kB = 1,000 bytes). Chunks loaded later by dynamic import (the chart library) are listed
 * apart. Exits non-zero when a route is over. Run after `npm run build`: npx tsx bench/bundle/run.ts
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 120_000;
const client = path.resolve("build/client");
const assets = path.join(client, "assets");
const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
if (!manifestFile) {
  console.error("No build/client/assets/manifest-*.js: run `npm run build` first.");
  process.exit(2);
}
const text = readFileSync(path.join(assets, manifestFile), "utf8");
const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
  entry: { module: string; imports?: string[] };
  routes: Record<
    string,
    { id: string; parentId?: string; path?: string; index?: boolean; module: string; imports?: string[] }
  >;
};

const gzSize = new Map<string, number>();
function gzipped(url: string): number {
  let n = gzSize.get(url);
  if (n === undefined) {
    const file = path.join(client, url);
    n = existsSync(`${file}.gz`)
      ? readFileSync(`${file}.gz`).length
      : gzipSync(readFileSync(file), { level: 9 }).length;
    gzSize.set(url, n);
  }
  return n;
}

function chain(id: string): string[] {
  const out: string[] = [];
  for (let r: string | undefined = id; r; r = manifest.routes[r]?.parentId) out.unshift(r);
  return out;
}

const entryFiles = [manifest.entry.module, ...(manifest.entry.imports ?? [])];
const rows: { route: string; files: number; bytes: number }[] = [];
for (const id of Object.keys(manifest.routes)) {
  const files = new Set(entryFiles);
  for (const r of chain(id)) {
    const route = manifest.routes[r];
    files.add(route.module);
    for (const imp of route.imports ?? []) files.add(imp);
  }
  rows.push({ route: id, files: files.size, bytes: [...files].reduce((s, f) => s + gzipped(f), 0) });
}
rows.sort((a, b) => b.bytes - a.bytes);
const all = new Set(rows.flatMap((r) => r.route));
const staticFiles = new Set<string>(entryFiles);
for (const route of Object.values(manifest.routes)) {
  staticFiles.add(route.module);
  for (const imp of route.imports ?? []) staticFiles.add(imp);
}
const lazy = readdirSync(assets)
  .filter((f) => f.endsWith(".js") && !staticFiles.has(`/assets/${f}`) && f !== manifestFile)
  .map((f) => ({ file: f, bytes: gzipped(`/assets/${f}`) }))
  .sort((a, b) => b.bytes - a.bytes);

const kB = (n: number) => (n / 1000).toFixed(1);
console.log(
  `bundle budget per route: ${kB(BUDGET)} kB gzip (entry alone ${kB(entryFiles.reduce((s, f) => s + gzipped(f), 0))} kB); load average ${os.loadavg()[0].toFixed(2)}`,
);
console.log("| route | files | JS gzip kB | ratio to budget |");
console.log("|---|---|---|---|");
for (const r of rows)
  console.log(
    `| ${r.route} | ${r.files} | ${kB(r.bytes)} | ${(r.bytes / BUDGET).toFixed(2)}${r.bytes > BUDGET ? " ✗" : ""} |`,
  );
console.log(
  `\nloaded later (dynamic import), gzip kB: ${
    lazy
      .slice(0, 8)
      .map((l) => `${l.file} ${kB(l.bytes)}`)
      .join(", ") || "none"
  }`,
);
const over = rows.filter((r) => r.bytes > BUDGET);
console.log(over.length === 0 ? `all ${all.size} routes within budget` : `${over.length} route(s) over budget`);
process.exit(over.length === 0 ? 0 : 1);
