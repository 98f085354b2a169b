/** The load bench's floor (bench/load/floor-app.tsx) as a server of its own: used by floor.ts and run.ts. */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { WEB_NODE_FLAGS } from "../../server/web-flags";
import { freePort, waitHttp } from "./pages";

/** The empty document behind the portal's route table (floor-app.tsx), served when the portal is built. */
export const TABLE_FLOOR = { path: "/home", name: "Remix document behind the portal's route table" } as const;

export const FLOOR_PATHS = [
  { path: "/healthz", name: "/healthz (the portal's)" },
  { path: "/streamed", name: "Remix document, streamed (the portal's flags and entry)" },
  { path: "/whole", name: "Remix document, one string (single fetch off)" },
] as const;

/**
 * The floor's server (bench/load/floor-app.tsx) as a process of its own, once each of its paths answers as it should.
 * Also started by run.ts, which measures /home against its streamed document in the same run.
 */
export async function startFloorServer(): Promise<{ base: string; server: ChildProcess }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [...WEB_NODE_FLAGS, "--import", "tsx", "bench/load/floor-app.tsx"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port) },
    stdio: "inherit",
  });
  try {
    await waitHttp(`${base}/healthz`, server);
    const built = fs.existsSync("build/server/index.js");
    for (const { path } of [...FLOOR_PATHS, ...(built ? [TABLE_FLOOR] : [])]) {
      const res = await fetch(base + path);
      const body = await res.text();
      if (!res.ok || (path !== "/healthz" && !body.includes("<h1>Início</h1>")))
        throw new Error(`${path} answered ${res.status}`);
    }
  } catch (error) {
    server.kill("SIGINT");
    throw error;
  }
  return { base, server };
}
