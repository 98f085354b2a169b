/**
 * Upload benchmark: a 1 GB file through the local store's HTTP upload path (the real
 * /api/upload handler: multipart parsing, extension/size checks, streaming to DATA_DIR/uploads,
 * registration) against a raw loopback copy of the same bytes (plain HTTP PUT → fs write), both
 * served by the same child process, whose peak RSS is sampled.
 *
 *   npx tsx bench/upload/run.ts            (BENCH_UPLOAD_BYTES=… to change the size)
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { loopbackRequest, MB, multipartUpload, writeRandomFile } from "./common";

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

async function serve() {
  const dataDir = process.env.DATA_DIR!;
  const { handleUpload } = await import("../../app/platform/import/upload.server");
  const { createReadableStreamFromReadable } = await import("@remix-run/node");
  global.gc?.();
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  setInterval(sample, 20).unref();

  const server = http.createServer(async (req, res) => {
    try {
      if (req.url === "/rss/reset") {
        peak = process.memoryUsage().rss;
        res.end(String(peak));
      } else if (req.url === "/rss/peak") {
        sample();
        res.end(String(peak));
      } else if (req.method === "PUT" && req.url === "/raw") {
        await pipeline(req, fs.createWriteStream(path.join(dataDir, "raw.bin"), { highWaterMark: MB }));
        res.end("ok");
      } else if (req.method === "POST" && req.url?.startsWith("/upload")) {
        const request = new Request("http://localhost/api/upload", {
          method: "POST",
          headers: req.headers as Record<string, string>,
          // "remix": the conversion @remix-run/express applies to every request body (a 16 KB
          // queue that pauses the socket after each chunk); "node": Node's own Readable.toWeb.
          body:
            req.url === "/upload?adapter=remix"
              ? createReadableStreamFromReadable(req)
              : (Readable.toWeb(req) as ReadableStream),
          duplex: "half",
        } as RequestInit);
        const result = await handleUpload(request, "bench@local");
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify(result));
      } else {
        res.statusCode = 404;
        res.end();
      }
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address() as { port: number };
    process.send?.({ port: address.port });
  });
}

async function request(port: number, options: http.RequestOptions, body: () => Readable): Promise<string> {
  const answer = await loopbackRequest(port, options, body);
  if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text}`);
  return answer.text;
}

const get = (port: number, p: string) => request(port, { method: "GET", path: p }, () => Readable.from([]));

async function main() {
  if (process.argv.includes("--server")) return serve();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "jp-bench-upload-"));
  const source = path.join(dir, "source.csv");
  await writeRandomFile(source, SIZE);

  // The database runs here, so the child's RSS is the web server's alone.
  const { startEmbeddedMongo } = await import("embedded-mongo");
  const mongo = await startEmbeddedMongo();
  // The server runs as plain JS bundled by esbuild, as in production (no tsx in the measured process).
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundle = path.join(here, ".build", "server.mjs");
  const esbuild = await import("esbuild");
  await esbuild.build({
    entryPoints: [fileURLToPath(import.meta.url)],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // node_modules stay external; the app's own modules (including the ~/ alias) are bundled.
    plugins: [
      {
        name: "externals",
        setup: (b) => b.onResolve({ filter: /^[^./~]/ }, (a) => ({ path: a.path, external: true })),
      },
    ],
    tsconfig: path.resolve(here, "../../tsconfig.json"),
    logLevel: "error",
  });
  const child: ChildProcess = spawn(process.execPath, [bundle, "--server"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      MONGODB_URI: mongo.uri,
      SESSION_SECRET: "x".repeat(40),
      DATA_DIR: dir,
      UPLOAD_MAX_BYTES: String(4 * 1024 ** 3),
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  // Never leave the server behind, whatever happens below.
  process.once("exit", () => child.kill());
  const port = await new Promise<number>((resolve) => child.once("message", (m: { port: number }) => resolve(m.port)));

  const upload = multipartUpload(source, SIZE, "bench.csv");

  const results = {
    raw: [] as number[],
    node: [] as number[],
    remix: [] as number[],
    uploadPeakRss: 0,
    rawPeakRss: 0,
    baseRss: 0,
  };
  for (let round = 0; round < ROUNDS; round++) {
    await get(port, "/rss/reset");
    const t = performance.now();
    // The same bytes through the same client code as the uploads (multipart framing included).
    await request(
      port,
      { method: "PUT", path: "/raw", headers: { "Content-Length": upload.contentLength } },
      upload.body,
    );
    results.raw.push(SIZE / MB / ((performance.now() - t) / 1000));
    results.rawPeakRss = Math.max(results.rawPeakRss, Number(await get(port, "/rss/peak")));

    for (const adapter of ["node", "remix"] as const) {
      results.baseRss = Number(await get(port, "/rss/reset"));
      const started = performance.now();
      const answer = JSON.parse(
        await request(
          port,
          {
            method: "POST",
            path: `/upload?adapter=${adapter}`,
            headers: { "Content-Type": upload.contentType, "Content-Length": upload.contentLength },
          },
          upload.body,
        ),
      );
      results[adapter].push(SIZE / MB / ((performance.now() - started) / 1000));
      results.uploadPeakRss = Math.max(results.uploadPeakRss, Number(await get(port, "/rss/peak")));
      if (!answer.files || answer.files[0].bytes !== SIZE) throw new Error(`upload failed: ${JSON.stringify(answer)}`);
      await fsp.rm(path.join(dir, "uploads"), { recursive: true, force: true });
    }
  }
  child.kill();
  await mongo.stop();
  await fsp.rm(dir, { recursive: true, force: true });
  await fsp.rm(path.dirname(bundle), { recursive: true, force: true });

  const best = (xs: number[]) => Math.max(...xs);
  const raw = best(results.raw);
  const viaNode = best(results.node);
  const viaRemix = best(results.remix);
  const mb = (n: number) => `${(n / MB).toFixed(0)} MB`;
  console.log(`file size                          ${mb(SIZE)} (${ROUNDS} rounds, best of each)`);
  console.log(`baseline raw PUT → fs write        ${raw.toFixed(0)} MB/s   (peak RSS ${mb(results.rawPeakRss)})`);
  console.log(
    `upload handler, body via Node      ${viaNode.toFixed(0)} MB/s   ratio ${((viaNode / raw) * 100).toFixed(1)} %   (target ≥ 80 %)`,
  );
  console.log(
    `upload handler, body via Remix     ${viaRemix.toFixed(0)} MB/s   ratio ${((viaRemix / raw) * 100).toFixed(1)} %   (the express adapter's conversion)`,
  );
  console.log(
    `server peak RSS during uploads     ${mb(results.uploadPeakRss)}   (target < 150 MB; idle server after warm-up ${mb(results.baseRss)})`,
  );
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
