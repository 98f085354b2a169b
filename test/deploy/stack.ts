import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type EmbeddedMongo, startEmbeddedMongo } from "embedded-mongo";
import { type Db, MongoClient } from "mongodb";
import { applyIndexes } from "~/models/all-indexes.server";
import { seedDatabase } from "~/seed/index.server";

/**
 * Processes as the deployment runs them, started from the production build: a database reached over TCP through
 * a proxy the test can cut (the database "goes down" for the web side), web hosts and workers as separate
 * processes that a test can kill -9, and plain HTTP helpers (sign-in, raw requests).
 */

export const HOST_ENTRY = path.resolve("build/host/index.js");
export const WORKER_ENTRY = path.resolve("build/host/worker.js");

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A TCP proxy to the database that can be taken down (every connection cut, new ones refused) and brought back. */
export async function startCuttableProxy(target: number) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const port = await freePort();
  const up = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target, "127.0.0.1");
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("error", () => undefined);
          s.on("close", () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  await up();
  return { port, uri: `mongodb://127.0.0.1:${port}/`, up, down };
}

export type Proc = {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  kill9: () => Promise<void>;
  stop: () => Promise<void>;
};

/** Spawns a command with exactly `env` (plus PATH), collecting its output. */
export function run(command: string, args: string[], env: Record<string, string>, cwd = process.cwd()): Proc {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const finished = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    output: () => output,
    exited,
    kill9: async () => {
      if (!finished()) child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      if (finished()) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false | null>,
  timeoutMs = 30_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function waitReady(baseURL: string, proc: Proc, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    `${baseURL}/readyz`,
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`exited with ${proc.child.exitCode}:\n${proc.output()}`);
      return (await fetch(`${baseURL}/readyz`)).ok;
    },
    timeoutMs,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${proc.output()}`);
  });
}

/** The embedded database in this process (it outlives the processes under test), seeded once. */
export async function startDatabase(
  options: { seed?: boolean } = {},
): Promise<{ mongo: EmbeddedMongo; databaseName: string; db: Db; close: () => Promise<void> }> {
  const mongo = await startEmbeddedMongo();
  const databaseName = `deploy_${crypto.randomBytes(4).toString("hex")}`;
  const client = new MongoClient(mongo.uri);
  await client.connect();
  const db = client.db(databaseName);
  await applyIndexes(db);
  if (options.seed !== false) await seedDatabase(db, { scale: 0.01 });
  return {
    mongo,
    databaseName,
    db,
    close: async () => {
      await client.close();
      await mongo.stop();
    },
  };
}

export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }) };
}

/** The environment every portal process of a test shares. */
export function portalEnv(options: {
  mongoUri: string;
  databaseName: string;
  dataDir: string;
  port?: number;
  extra?: Record<string, string>;
}): Record<string, string> {
  const origin = options.port ? `http://127.0.0.1:${options.port}` : "http://127.0.0.1";
  return {
    NODE_ENV: "production",
    ...(options.port ? { PORT: String(options.port) } : {}),
    APP_ORIGIN: origin,
    MONGODB_URI: options.mongoUri,
    DATABASE_NAME: options.databaseName,
    SESSION_SECRET: "deploy-test-secret-0123456789abcdef0123456789",
    DATA_DIR: options.dataDir,
    LOG_LEVEL: "info",
    ...options.extra,
  };
}

/** Signs in over plain HTTP (the no-JavaScript form) and returns the session cookie. */
export async function signInHttp(baseURL: string, email: string, password = "Portal#2026"): Promise<string> {
  const response = await fetch(`${baseURL}/?index`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseURL },
    body: new URLSearchParams({ intent: "signIn", email, password }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__session="));
  if (response.status !== 302 || !cookie)
    throw new Error(`sign-in of ${email} answered ${response.status}: ${await response.text()}`);
  return cookie.split(";")[0];
}

/** Sends raw bytes and returns the status line's code (0 when the connection closed without one). */
export async function rawStatus(port: number, bytes: Buffer | string): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answer.includes("\r\n")) socket.destroy();
    });
    socket.on("close", () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on("error", () => undefined);
    socket.write(bytes);
  });
}
