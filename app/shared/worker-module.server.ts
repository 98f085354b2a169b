import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Where a worker thread's module file is, for `new Worker(file)`: nothing is evaluated from text. Running from the
 * sources (development, tests): the `devLoader` beside the calling module (`from`, its import.meta.url), a .mjs that
 * loads the worker's .ts through tsx's loader (a worker thread does not inherit it). Bundled: the `built` file that
 * `npm run build` writes to build/host (server/build-host.ts), beside the host's bundles (build/host/*.js) or up from
 * the Remix server's (build/server/assets/*.js): the nearest `built` or `host/built` up to three folders up.
 */
export function workerModuleFile(built: string, devLoader: string, from: string): URL {
  const here = path.dirname(fileURLToPath(from));
  const candidates = [path.join(here, devLoader)];
  for (let dir = here, up = 0; up <= 3; dir = path.dirname(dir), up++)
    candidates.push(path.join(dir, built), path.join(dir, "host", built));
  const file = candidates.find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`the worker ${built} is missing (looked for ${candidates.join(", ")})`);
  return pathToFileURL(file);
}
