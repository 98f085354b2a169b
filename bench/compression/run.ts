/**
 * What compressing a dynamic page costs the web process, per setting: every page of bench/load/pages.ts is
 * fetched once uncompressed from the production build, then compressed in this process with each gzip level
 * and Brotli quality the portal could use. Prints, per page and setting, the compressed size and the CPU per
 * response, as ratios to the setting the portal uses (server/index.ts, `DYNAMIC_COMPRESSION`) measured in the
 * same run.
 *
 *   npm run build && npx tsx bench/compression/run.ts [--data bench/load/.data/scale-10] [--scale 10] [--only home,schneider] [--repeat 300]
 *
 * Seeds the data directory when it is empty (as bench/load does; they share it).
 */
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { DYNAMIC_COMPRESSION } from "../../server/compression-settings";
import { BENCH_OPTIONS, benchData, openBenchDatabase, PAGES, pagesNamed, signIn, spec001Pages, startWebProcess, type Account } from "../load/pages";

const { values: args } = parseArgs({ options: { ...BENCH_OPTIONS, repeat: { type: "string" } } });
const { scale: SCALE, dataDir: DATA } = benchData(args);
const REPEAT = Number(args.repeat ?? 300);

type Setting = { name: string; compress: (input: Buffer) => Buffer };
const gzip = (level: number): Setting => ({ name: `gzip ${level}`, compress: (input) => zlib.gzipSync(input, { level }) });
const brotli = (quality: number): Setting => ({
  name: `br ${quality}`,
  compress: (input) => zlib.brotliCompressSync(input, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } }),
});
const SETTINGS: Setting[] = [gzip(1), gzip(3), gzip(6), brotli(1), brotli(2), brotli(3), brotli(4), brotli(5)];
const CURRENT = { gzip: `gzip ${DYNAMIC_COMPRESSION.gzipLevel}`, br: `br ${DYNAMIC_COMPRESSION.brotliQuality}` };

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
  const pages = pagesNamed([...PAGES, ...(await spec001Pages(portal))], args.only, ["/home"]).filter((p) => p.name !== "/healthz");
  const cookies = new Map<Account, string>();
  const html = new Map<string, Buffer>();
  for (const page of pages) {
    if (!cookies.has(page.as)) cookies.set(page.as, await signIn(base, page.as));
    const res = await fetch(base + page.path, { headers: { cookie: cookies.get(page.as)!, "accept-encoding": "identity", accept: "text/html" } });
    if (!res.ok) throw new Error(`${page.path}: ${res.status}`);
    html.set(page.name, Buffer.from(await res.arrayBuffer()));
  }
  web.kill("SIGTERM");

  console.log(`# bench/compression — ${new Date().toISOString()}, ${REPEAT} compressions per page and setting; the portal uses ${CURRENT.br} (browsers) and ${CURRENT.gzip}`);
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
  for (const [name, t] of totals) console.log(`  ${name.padEnd(8)} CPU ${(t.ms / reference.ms).toFixed(2)}×, bytes ${(t.bytes / reference.bytes).toFixed(3)}×`);
  await client.close();
  await db.stop?.();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
