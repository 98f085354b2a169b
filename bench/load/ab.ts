/**
 * Two builds side by side: web CPU per request of the same pages in a baseline build (A) and the current one (B),
 * against one database, requests sent to A and B in alternating rounds so that the machine's drift (this 2-core VM
 * moves by ±20 % between identical runs of cpu.ts) falls on both alike. Prints each page's CPU in A and B, its bytes,
 * and B ÷ A, and the database CPU per request over both.
 *
 *   git stash   # or check out the baseline commit
 *   npm run build && rm -rf bench/load/.baseline-build && cp -r build bench/load/.baseline-build
 *   git stash pop && npm run build
 *   npx tsx bench/load/ab.ts [--data bench/load/.data/scale-10] [--scale 10] [--only home,executados] [--requests 150] [--rounds 6]
 *
 * The baseline lives inside the checkout (bench/load/.baseline-build, git-ignored) so that its server bundle
 * resolves the same node_modules.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import {
  type Account,
  BENCH_OPTIONS,
  benchData,
  cpuMs,
  fetchPage,
  openBenchDatabase,
  PAGES,
  type Page,
  pagesNamed,
  repeat,
  signIn,
  spec001Pages,
  startWebProcess,
  waitLoaded,
  warmUp,
} from "./pages";

const { values: args } = parseArgs({
  options: {
    ...BENCH_OPTIONS,
    requests: { type: "string" },
    rounds: { type: "string" },
  },
});
const { scale: SCALE, dataDir: DATA } = benchData(args);
const REQUESTS = Number(args.requests ?? 150);
const ROUNDS = Number(args.rounds ?? 6);
const CONCURRENCY = 4;
const BUILDS = { A: "bench/load/.baseline-build/host/index.js", B: "build/host/index.js" } as const;

type Web = { name: keyof typeof BUILDS; base: string; process: ChildProcess; cookies: Map<Account, string> };

async function startWeb(name: keyof typeof BUILDS, env: NodeJS.ProcessEnv): Promise<Web> {
  const { base, web } = await startWebProcess(BUILDS[name], env);
  return { name, base, process: web, cookies: new Map() };
}

/** Sends `count` requests of one page to one build, 4 at a time: its web CPU in ms, and the page's size. */
async function measure(web: Web, page: Page, count: number): Promise<{ ms: number; bytes: number }> {
  const cookie = web.cookies.get(page.as)!;
  let bytes = 0;
  const before = cpuMs(web.process.pid!);
  await repeat(count, CONCURRENCY, async () => {
    bytes = await fetchPage(web.base, page, cookie);
  });
  return { ms: cpuMs(web.process.pid!) - before, bytes };
}

async function main() {
  for (const entry of Object.values(BUILDS))
    if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: see the steps at the top of bench/load/ab.ts`);
  const { env, db, client, dbPid, portal } = await openBenchDatabase(DATA, SCALE);
  const webs = [await startWeb("A", env), await startWeb("B", env)];
  console.log(`database loaded and quiet ${(await waitLoaded(client, dbPid)).toFixed(0)} s after it answered`);

  // B ÷ A of /healthz's few tenths of a millisecond would be noise: /home is the baseline here.
  const measured = pagesNamed([...PAGES, ...(await spec001Pages(portal))], args.only, ["/home"]);
  for (const web of webs) {
    for (const account of new Set(measured.map((p) => p.as))) web.cookies.set(account, await signIn(web.base, account));
    for (const warning of await warmUp(web.base, measured, (page) => web.cookies.get(page.as)!)) console.log(warning);
  }

  console.log(
    `# bench/load/ab — ${new Date().toISOString()}, ${DATA}, ${ROUNDS} rounds of ${REQUESTS} requests per page and build, ${CONCURRENCY} at a time, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(
    "| page | A web CPU ms/req | B web CPU ms/req | B ÷ A | A bytes | B bytes | database CPU ms/req | B ÷ /home in B |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  let homeB = 0;
  for (const page of measured) {
    const cpu = { A: 0, B: 0 };
    const bytes = { A: 0, B: 0 };
    const db0 = cpuMs(dbPid);
    for (let round = 0; round < ROUNDS; round++) {
      // A then B in even rounds, B then A in odd ones.
      for (const web of round % 2 === 0 ? webs : [...webs].reverse()) {
        const result = await measure(web, page, REQUESTS);
        cpu[web.name] += result.ms;
        bytes[web.name] = result.bytes;
      }
    }
    const a = cpu.A / (ROUNDS * REQUESTS);
    const b = cpu.B / (ROUNDS * REQUESTS);
    const dbMs = (cpuMs(dbPid) - db0) / (2 * ROUNDS * REQUESTS);
    if (page.name === "/home") homeB = b;
    console.log(
      `| ${page.name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(3)} | ${bytes.A} | ${bytes.B} | ${dbMs.toFixed(2)} | ${homeB ? (b / homeB).toFixed(2) : ""} |`,
    );
  }
  for (const web of webs) web.process.kill("SIGTERM");
  await Promise.all(
    webs.map(
      (web) =>
        new Promise((resolve) => (web.process.exitCode !== null ? resolve(null) : web.process.once("exit", resolve))),
    ),
  );
  await client.close();
  await db.stop?.();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
