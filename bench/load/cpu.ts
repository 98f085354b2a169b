/**
 * CPU per request of each page of bench/load/pages.ts, in the web process and in the database process, read
 * from /proc before and after a fixed number of requests sent 4 at a time, the pages taking turns (--rounds).
 * Once 50 users saturate the two cores, the load bench's latency ratios follow these CPU ratios; measured here
 * without the queueing noise of a 50-user run, so a change to the request path can be judged page by page. A
 * diagnostic beside run.ts: its ratios are to /home and /healthz measured in the same run.
 *
 *   npm run build && npx tsx bench/load/cpu.ts [--data bench/load/.data/scale-10] [--scale 10] [--requests 1000] [--rounds 5] [--only home,executados] [--profile]
 *
 * Seeds the data directory when it is empty (as run.ts does; both reuse it). --profile writes the web
 * process's .cpuprofile into the data directory.
 */
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
    profile: { type: "boolean" },
  },
});
const { scale: SCALE, dataDir: DATA } = benchData(args);
const REQUESTS = Number(args.requests ?? 1000);
const ROUNDS = Number(args.rounds ?? 5);
const CONCURRENCY = 4;

async function main() {
  if (!fs.existsSync("build/host/index.js")) throw new Error("run `npm run build` first");
  const { env, db, client, dbPid, portal } = await openBenchDatabase(DATA, SCALE);
  const profile = args.profile ? ["--cpu-prof", `--cpu-prof-dir=${DATA}`] : [];
  const { base, web } = await startWebProcess("build/host/index.js", env, profile);

  // The database loads its collections (and builds their indexes) in the background after it starts, which would be
  // counted against the pages.
  console.log(`database loaded and quiet ${(await waitLoaded(client, dbPid)).toFixed(0)} s after it answered`);

  const measured = pagesNamed([...PAGES, ...(await spec001Pages(portal))], args.only);
  const cookies = new Map<Account, string>();
  for (const account of new Set(measured.map((p) => p.as))) cookies.set(account, await signIn(base, account));

  // Every page warmed before any is measured (/home, first, would otherwise run colder code than the rest).
  for (const warning of await warmUp(base, measured, (page) => cookies.get(page.as)!)) console.log(warning);
  console.log(
    `# bench/load/cpu — ${new Date().toISOString()}, ${DATA}, ${REQUESTS} requests per page, ${CONCURRENCY} at a time, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log("| page | bytes | web CPU ms/req | database CPU ms/req | web ÷ /home | web ÷ /healthz |");
  console.log("|---|---|---|---|---|---|");
  // The pages take turns, ROUNDS times, so that what drifts during the run (the web process's heap, the machine) is
  // shared by all of them instead of landing on the pages measured last.
  const spent = new Map<string, { bytes: number; web: number; db: number }>();
  for (const page of measured)
    spent.set(page.name, { bytes: await fetchPage(base, page, cookies.get(page.as)!), web: 0, db: 0 });
  const perRound = Math.ceil(REQUESTS / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const page of measured) {
      const cookie = cookies.get(page.as)!;
      const web0 = cpuMs(web.pid!);
      const db0 = cpuMs(dbPid);
      await repeat(perRound, CONCURRENCY, async () => {
        await fetchPage(base, page, cookie);
      });
      const sum = spent.get(page.name)!;
      sum.web += cpuMs(web.pid!) - web0;
      sum.db += cpuMs(dbPid) - db0;
    }
  }
  const requests = perRound * ROUNDS;
  const webOf = (name: string) => (spent.get(name)?.web ?? NaN) / requests;
  for (const page of measured) {
    const sum = spent.get(page.name)!;
    const webMs = sum.web / requests;
    const home = webOf("/home");
    const healthz = webOf("/healthz");
    console.log(
      `| ${page.name} | ${sum.bytes} | ${webMs.toFixed(2)} | ${(sum.db / requests).toFixed(2)} | ${Number.isNaN(home) ? "—" : (webMs / home).toFixed(2)} | ${Number.isNaN(healthz) ? "—" : (webMs / healthz).toFixed(1)} |`,
    );
  }
  web.kill("SIGTERM");
  await new Promise((r) => web.once("exit", r));
  await client.close();
  await db.stop?.();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
