/**
 * Bundles the TypeScript host (and the one-off index command) into plain JavaScript under
 * build/host, so production runs `node` with no TypeScript tooling installed.
 * npm packages stay external: they come from node_modules at run time; the project's own workspace packages
 * (packages/*, TypeScript sources) are bundled.
 */
import path from "node:path";
import { type BuildOptions, build, type Plugin } from "esbuild";

/** Resolves the `~/` alias to app/ itself; `packages: "external"` would otherwise leave it as a package name. */
const appAlias: Plugin = {
  name: "app-alias",
  setup(b) {
    b.onResolve({ filter: /^~\// }, (args) =>
      b.resolve(`./${args.path.slice(2)}`, { resolveDir: path.resolve("app"), kind: args.kind }),
    );
  },
};

/**
 * Bundles the workspace's TypeScript packages (embedded-mongo, xlsx-reader), which node could not load from
 * node_modules.
 */
const workspacePackages: Plugin = {
  name: "workspace-packages",
  setup(b) {
    b.onResolve({ filter: /^(embedded-mongo|xlsx-reader)(\/.*)?$/ }, (args) => {
      const name = args.path.split("/")[0];
      const sub = args.path.slice(name.length).replace(/^\//, "") || "index";
      return { path: path.resolve("packages", name, `${sub}.ts`) };
    });
  },
};

/**
 * The host's esbuild options. No `keepNames`: esbuild would wrap every function, and every closure
 * created at run time, in a `__name(fn, "…")` call (tsx, which runs the dev server and the
 * benchmarks, does keep names). bench/ingest builds the worker with these same options.
 */
export function hostBuildOptions(entryPoints: Record<string, string>, outdir: string): BuildOptions {
  return {
    entryPoints,
    outdir,
    bundle: true,
    // Dynamic imports stay lazy (e.g. the embedded database and its query engine, loaded only without MONGODB_URI).
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
    tsconfig: "tsconfig.json",
    plugins: [appAlias, workspacePackages],
    // A few CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  };
}

async function main() {
  const entryPoints: Record<string, string> = {
    index: "server/index.ts",
    worker: "server/worker.ts",
    // cli.js: the operator's commands in the image (create-admin, db:indexes, seed), run with plain node.
    cli: "server/cli.ts",
    // The embedded database's own process (started by the host, worker, CLI and demo when MONGODB_URI is unset: server/database.ts).
    "embedded-mongo": "packages/embedded-mongo/cli.ts",
    // The XLSX reader's worker thread, a module file of its own (packages/xlsx-reader/worker-entry.ts finds it here,
    // beside the host's bundles and from the Remix server's build/server).
    "xlsx-reader-worker": "packages/xlsx-reader/worker.ts",
    // The other worker threads' modules, found the same way (~/shared/worker-module.server.ts), and the embedded
    // database's snapshot checker, beside build/host/embedded-mongo.js (packages/embedded-mongo/checksums.ts).
    "viewer-worker": "app/features/reports-and-financial/viewer-worker.server.ts",
    "document-text-worker": "app/platform/import/document-text-worker.server.ts",
    "embedded-mongo-checksums": "packages/embedded-mongo/checksum-worker.ts",
  };
  await build(hostBuildOptions(entryPoints, "build/host"));
  console.log(
    `host built: ${Object.keys(entryPoints)
      .map((n) => `build/host/${n}.js`)
      .join(", ")}`,
  );
}

// Build only when run (`tsx server/build-host.ts`), not when imported for the options.
if (process.argv[1] && path.basename(process.argv[1]) === "build-host.ts") await main();
