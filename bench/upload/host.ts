/**
 * Upload benchmark through the production host, end to end: the built server (`build/host/index.js`:
 * Express, security headers, the Remix request handler, the session guard, /api/upload's streaming
 * multipart reader and the local store), signed in as a demo user, against a raw loopback copy of the
 * same bytes (HTTP PUT piped to a file) measured in the same run. The host's RSS is sampled from /proc
 * every 20 ms; the embedded database runs in this process, and the import worker is off
 * (WORKER_IN_PROCESS=0), so the figure is the web process's own.
 *
 *   npm run build && npx tsx bench/upload/host.ts      (BENCH_UPLOAD_BYTES=… to change the size)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startApp } from "#test/e2e/harness";
import { signIn } from "../sign-in";
import { loopbackRequest, MB, multipartUpload, writeRandomFile } from "./common";

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** The resident set of a process, in bytes (Linux). */
function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** Samples a process's RSS every 20 ms while `work` runs; the work's result and the peak. */
async function withPeakRss<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  try {
    const value = await work();
    return { value, peak: Math.max(peak, rssOf(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/** A child process that copies a PUT body to a file: the baseline. */
async function startRawServer(target: string): Promise<{ port: number; pid: number; stop: () => void }> {
  const script = `
    const http = require("node:http"), fs = require("node:fs"), { pipeline } = require("node:stream/promises");
    const server = http.createServer(async (req, res) => { await pipeline(req, fs.createWriteStream(${JSON.stringify(target)}, { highWaterMark: 1 << 20 })); res.end("ok"); });
    server.listen(0, "127.0.0.1", () => process.send(server.address().port));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const port = await new Promise<number>((resolve) => child.once("message", (p) => resolve(Number(p))));
  return { port, pid: child.pid ?? 0, stop: () => child.kill() };
}

async function main() {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "jp-bench-host-"));
  const source = path.join(dir, "bench.zip");
  await writeRandomFile(source, SIZE);
  const app = await startApp({
    env: { UPLOAD_MAX_BYTES: String(4 * 1024 ** 3), WORKER_IN_PROCESS: "0", LOG_LEVEL: "warn" },
  });
  const raw = await startRawServer(path.join(dir, "raw.bin"));
  try {
    const base = new URL(app.baseURL);
    const cookie = await signIn(app.baseURL, "bronze@demo.local");
    const upload = multipartUpload(source, SIZE, "bench.zip");
    const idleRss = rssOf(app.pid);
    const results = { raw: [] as number[], host: [] as number[], peak: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      let started = performance.now();
      // Each round starts with empty folders, so page-cache and disk state do not favour either side.
      await fsp.rm(path.join(dir, "raw.bin"), { force: true });
      await fsp.rm(path.join(app.dataDir, "uploads"), { recursive: true, force: true });
      // The same bytes through the same client code as the upload below (multipart framing included).
      const copy = await loopbackRequest(
        raw.port,
        { method: "PUT", path: "/", headers: { "Content-Length": upload.contentLength } },
        upload.body,
      );
      if (copy.status !== 200) throw new Error(`raw copy failed: ${copy.status}`);
      results.raw.push(SIZE / MB / ((performance.now() - started) / 1000));

      started = performance.now();
      const { value: answer, peak } = await withPeakRss(app.pid, () =>
        loopbackRequest(
          Number(base.port),
          {
            method: "POST",
            path: "/api/upload",
            headers: {
              "Content-Type": upload.contentType,
              "Content-Length": upload.contentLength,
              Cookie: cookie,
              Origin: app.baseURL,
            },
          },
          upload.body,
        ),
      );
      results.host.push(SIZE / MB / ((performance.now() - started) / 1000));
      results.peak = Math.max(results.peak, peak);
      // The no-JavaScript path answers with a redirect back to the upload screen and a toast.
      if (
        answer.status !== 302 ||
        !String(answer.headers.location).startsWith("/captura/manual") ||
        String(answer.headers.location).includes("error")
      ) {
        throw new Error(
          `upload failed: ${answer.status} ${answer.headers.location ?? ""} ${answer.text.slice(0, 200)}`,
        );
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratios = results.host.map((h, i) => h / results.raw[i]);
    const mb = (n: number) => `${(n / MB).toFixed(0)} MB`;
    console.log(
      `file size                               ${mb(SIZE)} (${ROUNDS} interleaved rounds, medians; load average ${os.loadavg()[0].toFixed(1)})`,
    );
    console.log(
      `baseline raw PUT → file (own process)   ${median(results.raw).toFixed(0)} MB/s   (rounds: ${results.raw.map((x) => x.toFixed(0)).join(", ")})`,
    );
    console.log(
      `/api/upload through the host            ${median(results.host).toFixed(0)} MB/s   (rounds: ${results.host.map((x) => x.toFixed(0)).join(", ")})`,
    );
    console.log(
      `host / baseline, per round              ${ratios.map((r) => `${(r * 100).toFixed(0)} %`).join(", ")}   median ${(median(ratios) * 100).toFixed(1)} %   (target ≥ 80 %)`,
    );
    console.log(
      `host peak RSS during the uploads        ${mb(results.peak)}   (target < 150 MB; idle after sign-in ${mb(idleRss)})`,
    );
  } finally {
    raw.stop();
    await app.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
