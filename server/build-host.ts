/**
 * Bundles the TypeScript host (and the one-off index command) into plain JavaScript under
 * build/host, so production runs `node` with no TypeScript tooling installed.
 * npm packages stay external: they come from node_modules at run time.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { build, type Plugin } from "esbuild";

/** Resolves the `~/` alias to app/ itself; `packages: "external"` would otherwise leave it as a package name. */
const appAlias: Plugin = {
  name: "app-alias",
  setup(b) {
    b.onResolve({ filter: /^~\// }, (args) =>
      b.resolve(`./${args.path.slice(2)}`, { resolveDir: path.resolve("app"), kind: args.kind }),
    );
  },
};

const entryPoints: Record<string, string> = { index: "server/index.ts", worker: "server/worker.ts" };
if (existsSync("scripts/db-indexes.ts")) entryPoints["db-indexes"] = "scripts/db-indexes.ts";

await build({
  entryPoints,
  outdir: "build/host",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
  tsconfig: "tsconfig.json",
  plugins: [appAlias],
  // A few CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
console.log(`host built: ${Object.keys(entryPoints).map((n) => `build/host/${n}.js`).join(", ")}`);
