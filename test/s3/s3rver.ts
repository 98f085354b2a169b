import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, vi } from "vitest";
import { forgetS3StoresForTests } from "~/services/storage.server";
import { swapEnv } from "../env";

/**
 * A real S3-compatible server (s3rver) on a free loopback port, with one private bucket, and the portal configured
 * for it: STORAGE=s3, S3_ENDPOINT, path-style addressing, s3rver's credentials, no object tags. `stop()` and
 * `start()` take it down and bring it back on the same port (faults). It runs in a process of its own, without the
 * portal's --disable-proto=throw (s3rver-process.mjs says why).
 */
export const S3RVER_BUCKET = "journey-uploads";

const SERVER_SCRIPT = path.join(path.dirname(new URL(import.meta.url).pathname), "s3rver-process.mjs");

/**
 * Starts s3rver's process on `port` (0: a free one) over `dir`, with `bucket` configured by `configs` (CORS documents),
 * and resolves with it and the port it listens on.
 */
export async function startS3rverProcess(
  port: number,
  dir: string,
  bucket = S3RVER_BUCKET,
  configs: string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  const env = { ...process.env, NODE_OPTIONS: (process.env.NODE_OPTIONS ?? "").replace(/--disable-proto=\S+/g, "") };
  const child = spawn(process.execPath, [SERVER_SCRIPT, String(port), dir, bucket, JSON.stringify(configs)], {
    env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [line] = (await Promise.race([
    once(lines, "line"),
    once(child, "exit").then(([code]) => {
      throw new Error(`s3rver exited before listening (${code})`);
    }),
  ])) as [string];
  lines.close();
  return { child, port: (JSON.parse(line) as { port: number }).port };
}

/** Stops a process `startS3rverProcess` started (its standard input closed), once it has exited. */
export async function stopS3rverProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = once(child, "exit");
  child.stdin?.end();
  await exited;
}

export function useS3rver() {
  const state = {
    port: 0,
    dir: "",
    server: undefined as ChildProcess | undefined,
    get endpoint() {
      return `http://127.0.0.1:${this.port}`;
    },
    async start() {
      const { child, port } = await startS3rverProcess(this.port, this.dir);
      this.server = child;
      this.port = port;
    },
    async stop() {
      const child = this.server;
      this.server = undefined;
      await stopS3rverProcess(child);
    },
  };
  let restore: () => void = () => undefined;
  beforeAll(async () => {
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), "jp-s3rver-"));
    await state.start();
    restore = swapEnv({
      STORAGE: "s3",
      S3_BUCKET: S3RVER_BUCKET,
      S3_ENDPOINT: state.endpoint,
      S3_FORCE_PATH_STYLE: "1",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      AWS_SESSION_TOKEN: undefined,
      AWS_PROFILE: undefined,
      S3_OBJECT_TAGGING: undefined,
      S3_PUBLIC_ENDPOINT: undefined,
    });
    forgetS3StoresForTests();
  });
  afterAll(async () => {
    await state.stop();
    restore();
    forgetS3StoresForTests();
    fs.rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}

/** The JSON log lines written to stdout/stderr while `fn` runs (and nothing printed to the console). */
export async function captureLog<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; lines: Array<Record<string, unknown>>; raw: string }> {
  const chunks: string[] = [];
  const grab = (chunk: unknown) => {
    chunks.push(String(chunk));
    return true;
  };
  const err = vi.spyOn(process.stderr, "write").mockImplementation(grab as typeof process.stderr.write);
  const out = vi.spyOn(process.stdout, "write").mockImplementation(grab as typeof process.stdout.write);
  try {
    const result = await fn();
    const raw = chunks.join("");
    const lines = raw
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { result, lines, raw };
  } finally {
    err.mockRestore();
    out.mockRestore();
  }
}
