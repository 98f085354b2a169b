import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type EmbeddedMongo, startEmbeddedMongo } from "embedded-mongo";
import { MongoClient } from "mongodb";
import { type Browser, chromium } from "playwright-core";
import { applyIndexes } from "~/models/all-indexes.server";
import { seedDatabase } from "~/seed/index.server";
import { runSeed } from "../../scripts/seed-run";

/**
 * Browser-test harness: a fresh in-memory embedded database (seeded at a small scale), the
 * production build on a free port, and Debian's Chromium driven by playwright-core.
 */

export const CHROMIUM_PATH = "/usr/bin/chromium";
/** Exactly these switches (plus a fresh profile and the DevTools port the driver needs). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];
const HOST_ENTRY = path.resolve("build/host/index.js");
/** Small volumes keep the seed to a few seconds; the screens still have several pages of data. */
export const E2E_SEED_SCALE = 0.01;

export type RunningApp = {
  baseURL: string;
  mongoUri: string;
  databaseName: string;
  /** The server's SESSION_SECRET, for tests that forge signed cookies (e.g. a toast). */
  sessionSecret: string;
  /** Everything the server printed so far (JSON log lines). */
  output: () => string;
  /** Resolves with the server's exit code once it has exited. */
  exited: Promise<number | null>;
  /** Sends a signal to the server process. */
  signal: (signal: NodeJS.Signals) => void;
  /** The server process's id (e.g. to read its memory from /proc). */
  pid: number;
  /** The server's DATA_DIR (uploads land in its `uploads/`). */
  dataDir: string;
  /** Stops the database under the running server (to see how the portal answers an outage); `stop` still cleans up. */
  stopDatabase: () => Promise<void>;
  stop: () => Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Starts the embedded database, seeds it and starts the built server against it. `seed: "empty"` writes the empty
 * start instead (what `npm run demo -- --empty` seeds: the demo accounts and configuration, no business data).
 */
export async function startApp(
  options: {
    env?: Record<string, string>;
    seed?: boolean | "empty";
    viaNpmStart?: boolean /** the server's wait for an unreachable database */;
    dbTimeoutMs?: number;
  } = {},
): Promise<RunningApp> {
  if (!existsSync(HOST_ENTRY)) {
    throw new Error(`${HOST_ENTRY} is missing: run \`npm run build\` first (\`npm run test:e2e\` does).`);
  }
  const mongo: EmbeddedMongo = await startEmbeddedMongo();
  // Uploaded bytes go to a fresh folder per server, never into the working tree's ./data.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-e2e-data-"));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  const databaseName = `e2e_${crypto.randomBytes(4).toString("hex")}`;
  let server: ChildProcess | undefined;
  try {
    const client = new MongoClient(mongo.uri);
    try {
      await client.connect();
      const db = client.db(databaseName);
      await applyIndexes(db);
      if (options.seed === "empty") await runSeed(db, { scale: 1, ifEmpty: true, empty: true }, () => undefined);
      else if (options.seed !== false) await seedDatabase(db, { scale: E2E_SEED_SCALE, dataDir });
    } finally {
      await client.close();
    }

    const port = await freePort();
    const baseURL = `http://127.0.0.1:${port}`;
    let output = "";
    const sessionSecret = crypto.randomBytes(32).toString("hex");
    // `viaNpmStart`: the way the container starts it (`npm start`), to check signals get through npm.
    const [command, args]: [string, string[]] = options.viaNpmStart
      ? ["npm", ["start", "--silent"]]
      : [process.execPath, [HOST_ENTRY]];
    server = spawn(command, args, {
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        PORT: String(port),
        APP_ORIGIN: baseURL,
        MONGODB_URI: options.dbTimeoutMs ? `${mongo.uri}&serverSelectionTimeoutMS=${options.dbTimeoutMs}` : mongo.uri,
        DATABASE_NAME: databaseName,
        SESSION_SECRET: sessionSecret,
        DATA_DIR: dataDir,
        LOG_LEVEL: "info",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => server?.once("exit", (code) => resolve(code)));
    server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null)
        throw new Error(`The server exited with code ${server.exitCode} before it was ready:\n${output}`);
      if (Date.now() > deadline) throw new Error(`The server was not ready within 60 s:\n${output}`);
      const ready = await fetch(`${baseURL}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const running = server;
    return {
      baseURL,
      mongoUri: mongo.uri,
      databaseName,
      sessionSecret,
      output: () => output,
      exited,
      signal: (signal) => running.kill(signal),
      pid: running.pid ?? 0,
      dataDir,
      stopDatabase: () => mongo.stop(),
      stop: async () => {
        running.kill("SIGTERM");
        await waitForExit(running, 15_000);
        await mongo.stop();
        removeDataDir();
      },
    };
  } catch (error) {
    server?.kill("SIGKILL");
    await mongo.stop();
    removeDataDir();
    throw error;
  }
}

export type RunningBrowser = { browser: Browser; close: () => Promise<void> };

/**
 * Launches /usr/bin/chromium with exactly CHROMIUM_ARGS and a fresh profile, driven over a pipe (playwright's launcher
 * with its own switches left out: they hide scrollbars and change what the layout checks measure). The pipe costs
 * the browser less per navigation than a DevTools socket.
 */
export async function launchChromium(executable: string = CHROMIUM_PATH): Promise<RunningBrowser> {
  if (!existsSync(executable)) {
    throw new Error(`${executable} is missing; the browser tests need Debian's Chromium: apt-get install -y chromium`);
  }
  const profile = mkdtempSync(path.join(os.tmpdir(), "portal-e2e-chromium-"));
  const removeProfile = async () => {
    // A helper may still be flushing into the profile for a moment; removing a temporary folder must not fail a test.
    for (let attempt = 1; ; attempt++) {
      try {
        rmSync(profile, { recursive: true, force: true });
        return;
      } catch (error) {
        if (attempt === 30) {
          process.stderr.write(`Could not remove the browser profile ${profile}: ${String(error)}\n`);
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  try {
    const browser = await chromium.launch({
      executablePath: executable,
      ignoreDefaultArgs: true,
      args: [...CHROMIUM_ARGS, `--user-data-dir=${profile}`, "--remote-debugging-pipe", "about:blank"],
      timeout: 30_000,
    });
    return {
      browser,
      close: async () => {
        await browser.close().catch(() => undefined);
        await removeProfile();
      },
    };
  } catch (error) {
    await removeProfile();
    throw error;
  }
}
