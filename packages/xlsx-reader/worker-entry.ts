import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { XlsxLimits } from "./limits";

/**
 * Where the reader's worker thread (worker.ts) is, for whoever starts it. Running from these sources (development,
 * tests, benchmarks): worker-dev.mjs beside this module, which loads worker.ts through tsx's loader (a worker thread
 * does not inherit it). Bundled: the built module that the portal's `npm run build` writes to build/host, beside the
 * host's bundles (build/host/*.js) or two folders up from the Remix server's (build/server/assets/*.js), found as the
 * nearest `xlsx-reader-worker.js` or `host/xlsx-reader-worker.js` from this module's folder up. Either is a module
 * file: nothing is evaluated from text.
 */

/** The worker's file name in the build (server/build-host.ts names its entry so). */
export const XLSX_WORKER_BUILT = "xlsx-reader-worker.js";

/** What the worker is started with (its `workerData.data`). */
export type XlsxWorkerData = {
  limits: XlsxLimits;
  /** Rows are sent in batches of about this many cells. */
  batchCells: number;
  /** The package's temporary file (threads share the process's descriptors), or null when its bytes are sent. */
  file: { fd: number; size: number } | null;
};

/** How many folders up from the bundle the built worker is looked for. */
const LEVELS_UP = 3;

/** The worker's module file, for `new Worker(file)`, as seen from the module at `from` (this one). */
export function xlsxWorkerFile(from: string = import.meta.url): URL {
  const here = path.dirname(fileURLToPath(from));
  const candidates = [path.join(here, "worker-dev.mjs")];
  for (let dir = here, up = 0; up <= LEVELS_UP; dir = path.dirname(dir), up++)
    candidates.push(path.join(dir, XLSX_WORKER_BUILT), path.join(dir, "host", XLSX_WORKER_BUILT));
  const file = candidates.find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`the XLSX reader's worker is missing (looked for ${candidates.join(", ")})`);
  return pathToFileURL(file);
}
