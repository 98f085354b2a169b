/**
 * What compressing a dynamic page costs the web process, per setting: every page of bench/load/pages.ts is
 * fetched once uncompressed from the production build, then compressed in this process with each gzip level
 * and Brotli quality (and window) the portal could use. Prints, per page and setting, the compressed size and
 * the CPU per response, as ratios to the setting the portal uses (server/compression-settings.ts,
 * `DYNAMIC_COMPRESSION`) measured in the same run. Then, per setting, the full (mark-compact) heap collections
 * per 1,000 responses when the pages are streamed through the setting's encoder 20 at a time, as the
 * `compression` middleware does: an encoder's memory outside the heap counts towards V8's external-memory
 * trigger, and each full collection of the web process costs tens of ms of its main thread. Last, "whole": the CPU
 * (every thread of the process) of a response compressed in one synchronous call, as the portal compresses a
 * response that ends within WHOLE_MAX, against the same response streamed through an encoder in the writes and
 * flushes Remix makes, as the `compression` middleware alone would, 20 in flight.
 *
 *   npm run build && npx tsx bench/compression/run.ts [--data bench/load/.data/scale-10] [--scale 10] [--only home,schneider] [--repeat 300]
 *
 * Seeds the data directory when it is empty (as bench/load does; they share it).
 */
import { PerformanceObserver, constants as perfConstants } from "node:perf_hooks";
import type { Transform } from "node:stream";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { brotliParams, DYNAMIC_COMPRESSION, WHOLE_MAX } from "../../server/compression-settings";
import {
  type Account,
  BENCH_OPTIONS,
  benchData,
  openBenchDatabase,
  PAGES,
  pagesNamed,
  signIn,
  spec001Pages,
  startWebProcess,
} from "../load/pages";

const { values: args } = parseArgs({ options: { ...BENCH_OPTIONS, repeat: { type: "string" } } });
const { scale: SCALE, dataDir: DATA } = benchData(args);
const REPEAT = Number(args.repeat ?? 300);
const STREAMED = 1_000;

type Setting = { name: string; compress: (input: Buffer) => Buffer; stream: () => Transform };
const gzip = (level: number): Setting => ({
  name: `gzip ${level}`,
  compress: (input) => zlib.gzipSync(input, { level }),
  stream: () => zlib.createGzip({ level }),
});
/** Brotli at a quality, with its default window (2^22) unless `windowBits` is given. */
const brotli = (quality: number, windowBits?: number): Setting => {
  const params = brotliParams(quality, windowBits);
  return {
    name: windowBits ? `br ${quality} w${windowBits}` : `br ${quality}`,
    compress: (input) => zlib.brotliCompressSync(input, { params }),
    stream: () => zlib.createBrotliCompress({ params }),
  };
};
const SETTINGS: Setting[] = [
  gzip(1),
  gzip(3),
  gzip(6),
  brotli(1),
  brotli(2),
  brotli(3),
  brotli(4),
  brotli(5),
  brotli(3, 16),
  brotli(3, 18),
  brotli(4, 18),
];
const CURRENT = {
  gzip: `gzip ${DYNAMIC_COMPRESSION.gzipLevel}`,
  br: `br ${DYNAMIC_COMPRESSION.brotliQuality} w${DYNAMIC_COMPRESSION.brotliWindowBits}`,
};
if (!SETTINGS.some((s) => s.name === CURRENT.br) || !SETTINGS.some((s) => s.name === CURRENT.gzip))
  throw new Error("the portal's settings are not among the bench's");

/** Runs `one` over `responses` pages taken in turn from `inputs`, 20 in flight. */
async function twentyInFlight(inputs: Buffer[], responses: number, one: (input: Buffer) => Promise<void>) {
  let sent = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (sent < responses) await one(inputs[sent++ % inputs.length]);
    }),
  );
}

/** Streams `input` through `encoder` in 16 kB writes (with a flush after each when `flush`), to its end. */
function streamThrough(encoder: Transform, input: Buffer, flush: boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    encoder
      .on("data", () => undefined)
      .on("end", resolve)
      .on("error", reject);
    for (let at = 0; at < input.length; at += 16_384) {
      encoder.write(input.subarray(at, at + 16_384));
      if (flush) (encoder as Transform & { flush: () => void }).flush();
    }
    encoder.end();
  });
}

/** Full heap collections while `responses` pages are streamed through the setting's encoder, 20 in flight, in 16 kB writes. */
async function fullCollections(setting: Setting, inputs: Buffer[], responses: number): Promise<number> {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) count++;
  });
  observer.observe({ entryTypes: ["gc"] });
  await twentyInFlight(inputs, responses, (input) => streamThrough(setting.stream(), input, false));
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return count;
}

/**
 * CPU per response (ms, every thread) of `responses` pages compressed with the portal's Brotli setting, 20 in flight:
 * streamed through an encoder in 16 kB writes with a flush after each (what Remix sends through the `compression`
 * middleware), or whole, in one synchronous call.
 */
async function streamedOrWhole(inputs: Buffer[], responses: number, whole: boolean): Promise<number> {
  const params = brotliParams(DYNAMIC_COMPRESSION.brotliQuality, DYNAMIC_COMPRESSION.brotliWindowBits);
  const before = process.cpuUsage();
  await twentyInFlight(inputs, responses, (input) => {
    if (!whole) return streamThrough(zlib.createBrotliCompress({ params }), input, true);
    zlib.brotliCompressSync(input, { params });
    return new Promise((resolve) => setImmediate(resolve));
  });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / responses;
}

/** CPU time in ms of one compression, the mean over REPEAT runs after a warm-up. */
function cost(setting: Setting, input: Buffer): { ms: number; bytes: number } {
  let bytes = 0;
  for (let i = 0; i < 20; i++) bytes = setting.compress(input).length;
  const before = process.cpuUsage();
  for (let i = 0; i < REPEAT; i++) setting.compress(input);
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000 / REPEAT, bytes };
}

async function main() {
  const { env, client, portal, db } = await openBenchDatabase(DATA, SCALE);
  const { base, web } = await startWebProcess("build/host/index.js", env);
  const pages = pagesNamed([...PAGES, ...(await spec001Pages(portal))], args.only, ["/home"]).filter(
    (p) => p.name !== "/healthz",
  );
  const cookies = new Map<Account, string>();
  const html = new Map<string, Buffer>();
  for (const page of pages) {
    if (!cookies.has(page.as)) cookies.set(page.as, await signIn(base, page.as));
    const res = await fetch(base + page.path, {
      headers: { cookie: cookies.get(page.as)!, "accept-encoding": "identity", accept: "text/html" },
    });
    if (!res.ok) throw new Error(`${page.path}: ${res.status}`);
    html.set(page.name, Buffer.from(await res.arrayBuffer()));
  }
  web.kill("SIGTERM");

  console.log(
    `# bench/compression — ${new Date().toISOString()}, ${REPEAT} compressions per page and setting; the portal uses ${CURRENT.br} (browsers) and ${CURRENT.gzip}`,
  );
  console.log(`| page | raw bytes | ${SETTINGS.map((s) => `${s.name}: bytes, ms`).join(" | ")} |`);
  console.log(`|---|---|${SETTINGS.map(() => "---").join("|")}|`);
  const totals = new Map(SETTINGS.map((s) => [s.name, { ms: 0, bytes: 0 }]));
  for (const [name, input] of html) {
    const cells = SETTINGS.map((s) => {
      const c = cost(s, input);
      const t = totals.get(s.name)!;
      t.ms += c.ms;
      t.bytes += c.bytes;
      return `${c.bytes}, ${c.ms.toFixed(3)}`;
    });
    console.log(`| ${name} | ${input.length} | ${cells.join(" | ")} |`);
  }
  const reference = totals.get(CURRENT.br)!;
  console.log(`\nAll pages together, against ${CURRENT.br}:`);
  for (const [name, t] of totals)
    console.log(
      `  ${name.padEnd(10)} CPU ${(t.ms / reference.ms).toFixed(2)}×, bytes ${(t.bytes / reference.bytes).toFixed(3)}×`,
    );
  const inputs = [...html.values()];
  console.log(
    `\nFull heap collections per ${STREAMED} responses streamed through each setting's encoder (20 in flight):`,
  );
  for (const setting of SETTINGS)
    console.log(`  ${setting.name.padEnd(10)} ${await fullCollections(setting, inputs, STREAMED)}`);
  const within = inputs.filter((input) => input.length <= WHOLE_MAX);
  await streamedOrWhole(within, 200, false);
  const streamed = await streamedOrWhole(within, STREAMED, false);
  const whole = await streamedOrWhole(within, STREAMED, true);
  console.log(
    `\nWhole (${within.length} of ${inputs.length} pages within WHOLE_MAX), ${CURRENT.br}, CPU per response of every thread: streamed ${streamed.toFixed(3)} ms, whole ${whole.toFixed(3)} ms = ${(whole / streamed).toFixed(2)}× streamed`,
  );
  await client.close();
  await db.stop?.();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
