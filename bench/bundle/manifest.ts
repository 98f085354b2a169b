/**
 * The JS a route loads on a full page load, read from the built Remix manifest (build/client): the entry, then every
 * route module of the matched chain (root → layouts → the route) with their static imports, gzip-compressed at level
 * 9 (1 kB = 1,000 bytes). Chunks a page loads later by dynamic import are not counted here (bench/bundle/chromium.ts
 * measures what Chromium fetches). Shared by bench/bundle/run.ts and test/bundle-budget.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** Every page's JS on a full load, gzip. */
export const PAGE_BUDGET = 110_000;
/** A native dashboard (/ij/painel/{id}): its charts may cost more. */
export const DASHBOARD_BUDGET = 140_000;

const BUDGETS: readonly [routeId: string, budget: number][] = [["routes/ij.painel.$id", DASHBOARD_BUDGET]];

/** The budget of a route id of the manifest (a route's child routes share its budget). */
export function budgetOf(routeId: string): number {
  const own = BUDGETS.find(([id]) => routeId === id || routeId.startsWith(`${id}.`));
  return own ? own[1] : PAGE_BUDGET;
}

type ManifestRoute = { id: string; parentId?: string; module: string; imports?: string[] };
export type ClientManifest = {
  entry: { module: string; imports?: string[] };
  routes: Record<string, ManifestRoute>;
};

/** The client build: its manifest and the gzip size of its files (precompressed `.gz` when the build wrote one). */
export type ClientBuild = {
  dir: string;
  manifestFile: string;
  manifest: ClientManifest;
  gzipped: (url: string) => number;
};

/** Reads build/client (or `dir`); undefined when there is no build. */
export function readClientBuild(dir = path.resolve("build/client")): ClientBuild | undefined {
  const assets = path.join(dir, "assets");
  if (!existsSync(assets)) return undefined;
  const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
  if (!manifestFile) return undefined;
  const text = readFileSync(path.join(assets, manifestFile), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as ClientManifest;
  const sizes = new Map<string, number>();
  const gzipped = (url: string): number => {
    let n = sizes.get(url);
    if (n === undefined) {
      const file = path.join(dir, url);
      n = existsSync(`${file}.gz`)
        ? readFileSync(`${file}.gz`).length
        : gzipSync(readFileSync(file), { level: 9 }).length;
      sizes.set(url, n);
    }
    return n;
  };
  return { dir, manifestFile, manifest, gzipped };
}

export const entryFiles = (m: ClientManifest): string[] => [m.entry.module, ...(m.entry.imports ?? [])];

/** The files a full load of `routeId` fetches per the manifest: the entry, then each route of its chain. */
export function routeFiles(m: ClientManifest, routeId: string): Set<string> {
  const chain: string[] = [];
  for (let r: string | undefined = routeId; r; r = m.routes[r]?.parentId) chain.unshift(r);
  const files = new Set(entryFiles(m));
  for (const id of chain) {
    const route = m.routes[id];
    files.add(route.module);
    for (const imp of route.imports ?? []) files.add(imp);
  }
  return files;
}

export type RouteFigure = { route: string; files: number; bytes: number; budget: number };

/** Every route's manifest figure, heaviest first. */
export function routeFigures(build: ClientBuild): RouteFigure[] {
  return Object.keys(build.manifest.routes)
    .map((route) => {
      const files = routeFiles(build.manifest, route);
      const bytes = [...files].reduce((s, f) => s + build.gzipped(f), 0);
      return { route, files: files.size, bytes, budget: budgetOf(route) };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

/** The chunks no route imports statically (loaded later by dynamic import), heaviest first. */
export function lazyChunks(build: ClientBuild): { file: string; bytes: number }[] {
  const { manifest } = build;
  const loaded = new Set<string>(entryFiles(manifest));
  for (const route of Object.values(manifest.routes)) {
    loaded.add(route.module);
    for (const imp of route.imports ?? []) loaded.add(imp);
  }
  return readdirSync(path.join(build.dir, "assets"))
    .filter((f) => f.endsWith(".js") && !loaded.has(`/assets/${f}`) && f !== build.manifestFile)
    .map((f) => ({ file: f, bytes: build.gzipped(`/assets/${f}`) }))
    .sort((a, b) => b.bytes - a.bytes);
}

export const kB = (n: number) => (n / 1000).toFixed(1);
