/**
 * The embedded database as its own process: what `npm run dev`, `npm run demo`, `npm start` with
 * ALLOW_EMBEDDED_DB=1, the seed and the stand-alone worker use when MONGODB_URI is unset. The first
 * process that needs the data directory starts `embedded-mongo` on it (a child that exits when its
 * parent does, even after kill -9) and advertises the address in the directory; later processes find
 * it there and connect over the socket like any client of a mongod. The web process holds no data.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const URI_FILE = "embedded-mongo.uri";

export type EmbeddedDbProcess = {
  uri: string;
  /** Stops the server when this process started it (undefined when it was already running). */
  stop?: () => Promise<void>;
  pid?: number;
};

/** The address a live server on this directory advertises, or undefined. */
export async function findRunningServer(dbPath: string): Promise<string | undefined> {
  const file = path.join(dbPath, URI_FILE);
  if (!existsSync(file)) return undefined;
  const uri = readFileSync(file, "utf8").trim();
  const m = /^mongodb:\/\/([^:/]+):(\d+)/.exec(uri);
  if (!m) return undefined;
  const alive = await new Promise<boolean>((resolve) => {
    const socket = net.connect(Number(m[2]), m[1]);
    socket.setTimeout(1_000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
  return alive ? uri : undefined;
}

/**
 * The database's heap is almost all live data and each full collection walks all of it (seconds of CPU). V8 starts
 * the next one after the heap grows by a small factor or, through its memory reducer, whenever allocation slows down:
 * several in a load-bench run, each one the p95 of the page it landed on. Letting the heap grow by half before the
 * next, and no collections just to return memory, left none during the pages of a run, for more RSS under load.
 * Each scavenge of its young generation also costs in proportion to that heap (7–9 ms with the default 16 MB
 * semi-spaces, 12 a second under the forecast review's load); 64 MB semi-spaces scavenge a fifth as often, for
 * ~2.5× less pause in all and ~100 MB more RSS. `npm run db` passes the same flags.
 */
export const DB_GC_FLAGS = ["--heap-growing-percent=50", "--no-memory-reducer", "--max-semi-space-size=64"];

/**
 * Every process of the portal (web, worker, CLI, this server, the tests) runs with these: a write through `__proto__`
 * anywhere (a library handed a hostile key path) throws instead of changing every object of the process. The npm
 * scripts and the image list the same (a test keeps them equal).
 */
export const NODE_HARDENING_FLAGS = ["--disable-proto=throw"];

/**
 * A start keeps the snapshot's bytes of the documents it leaves cold (journal/load.ts, cold.ts) in 4 MB buffers, freed
 * one by one as the background pass decodes them. glibc's malloc serves such blocks from its heap once a freed one has
 * raised its threshold for mmap, and then keeps most of them, for far more RSS with the same heap. A fixed threshold
 * (which also turns off raising it) gives each its own mapping, returned to the system when freed. Set for the server's
 * process by startEmbeddedDbProcess and `npm run db` (musl and other platforms ignore it).
 */
export const DB_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: "131072" } as const;

/** This module's folder: the package's sources, or the portal's build/host when the host bundle inlined it. */
const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * How to run the server: the bundled build (`build/host/embedded-mongo.js` under the working directory, which the
 * portal's `npm run build` writes) in production or whenever this module runs from a bundle (no `cli.ts` beside
 * it); otherwise the TypeScript source beside this module, with tsx's loader.
 */
function command(env: NodeJS.ProcessEnv): { file: string; args: string[] } {
  // All data lives in the server's heap: give it room (three quarters of the machine, at most 16 GB).
  const heapMb = Math.min(16_384, Math.floor((os.totalmem() / 1024 / 1024) * 0.75));
  const heap = /max-old-space-size/.test(env.NODE_OPTIONS ?? "") ? [] : [`--max-old-space-size=${heapMb}`];
  const flags = [...heap, ...NODE_HARDENING_FLAGS, ...DB_GC_FLAGS];
  const built = path.resolve("build/host/embedded-mongo.js");
  const source = path.join(here, "cli.ts");
  if (existsSync(built) && (env.NODE_ENV === "production" || !existsSync(source)))
    return { file: process.execPath, args: [...flags, built] };
  // tsx as a loader in the same process (as `npm run db` runs it), not tsx's CLI: the CLI runs the script in a
  // child of its own, without these flags (V8's default heap limit and collector settings), and its pid is not the
  // server's.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return { file: process.execPath, args: [...flags, "--import", tsx, source] };
}

/**
 * Starts the server on `dbPath` as a child process, or joins the one already running there.
 * Resolves once it accepts connections. Extra environment (e.g. NODE_OPTIONS) can be passed.
 */
export async function startEmbeddedDbProcess(
  dbPath: string,
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<EmbeddedDbProcess> {
  const running = await findRunningServer(dbPath);
  if (running) return { uri: running };
  const env = { ...DB_MALLOC_ENV, ...process.env, ...options.env };
  const { file, args } = command(env);
  const child: ChildProcess = spawn(file, [...args, "--dbpath", dbPath, "--port", "0", "--exit-with-parent"], {
    // stdin is the parent's lifeline: when it closes (the parent exited, however), the server stops.
    stdio: ["pipe", "pipe", "inherit"],
    // Its own process group: Ctrl+C reaches the parent, which drains its requests and then stops the server.
    detached: true,
    env,
  });
  const uri = await new Promise<string>((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /connection string: (\S+)/.exec(out);
      if (m) {
        child.stdout!.off("data", onData);
        // Keep relaying what the server says.
        child.stdout!.on("data", (more: Buffer) => options.log?.(more.toString().trimEnd()));
        resolve(m[1]);
      }
    };
    child.stdout!.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`the embedded database exited (code ${code}) before listening:\n${out.trim()}`)),
    );
  });
  child.removeAllListeners("exit");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    uri,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
