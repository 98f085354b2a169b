/**
 * Load benchmark: the production build on a scale-10 database (seeded once into a
 * scratch data directory and reused), 50 signed-in users (autocannon, one session per connection),
 * p50/p95/p99 and errors for /healthz, /home and every data page in ONE run, as ratios to /home and
 * /healthz measured in the same run. Then /healthz while a dashboard recomputes its figures, and the
 * memory of the web, database and worker processes (idle, and during a 300k-row import).
 *
 *   npm run build && npx tsx bench/load/run.ts [--seconds 10] [--data bench/load/.data] [--scale 10] [--skip-import] [--only plan_edit,master-data]
 *
 * Targets: every data page p95 ≤ 2× /home p95; /home p95 ≤ 2.5× an empty Remix document's (floor-app.tsx, measured
 * in the same run, the floor of any page); the first signed-in /home ≤ 5 s after the database process starts; 0
 * errors; /healthz p95 unchanged while a dashboard computes; worker RSS ≤ 400 MB during the import.
 * To measure a new page, add it to PAGES below.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { MongoClient } from "mongodb";
import { WEB_NODE_FLAGS } from "../../server/web-flags";
import { startFloorServer, TABLE_FLOOR } from "./floor-server";
import { type Measure, measure, USERS } from "./measure";
import {
  type Account,
  BENCH_OPTIONS,
  BIG_COLLECTIONS,
  benchData,
  freePort,
  openBenchDatabase,
  PAGES,
  pagesNamed,
  signIn,
  spec001Pages,
  waitHttp,
  waitLoaded,
  warmUp,
} from "./pages";

const { values: args } = parseArgs({
  options: {
    ...BENCH_OPTIONS,
    seconds: { type: "string" },
    "skip-import": { type: "boolean" },
  },
});
const SECONDS = Number(args.seconds ?? 10);
/** The first signed-in page after a start, from the database process's spawn (seconds). */
const FIRST_PAGE_S = 5;
const { scale: SCALE, dataDir: DATA } = benchData(args);

function rssMb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
  } catch {
    return NaN;
  }
}

async function main() {
  if (!fs.existsSync("build/host/index.js")) throw new Error("run `npm run build` first");
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" / ");
  const out: string[] = [];
  const say = (line: string) => {
    out.push(line);
    console.log(line);
  };
  say(
    `# bench/load — ${new Date().toISOString()}, scale ${SCALE}, ${USERS} users, ${SECONDS} s per page, ${os.cpus().length} CPUs, load average at start ${load()}`,
  );

  // 1. The database, as its own process, on the scratch data directory (seeded once, then reused).
  const dbStarted = performance.now();
  const { env, db, client, dbPid, portal } = await openBenchDatabase(DATA, SCALE, say);

  // 2. The production web process, started at once: the database answers while it loads.
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const webStarted = performance.now();
  const web = spawn(process.execPath, [...WEB_NODE_FLAGS, "build/host/index.js"], {
    env: { ...env, PORT: String(port), APP_ORIGIN: base },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stopAll = () => {
    web.kill("SIGTERM");
  };
  process.once("exit", stopAll);
  await waitHttp(`${base}/healthz`, web);
  const loginPage = await fetch(`${base}/`);
  const firstPage = (performance.now() - dbStarted) / 1000;
  const firstCookie = await signIn(base, "gold");
  const homePage = await fetch(`${base}/home`, { headers: { cookie: firstCookie } });
  const firstHome = (performance.now() - dbStarted) / 1000;
  say(
    `start: login page (status ${loginPage.status}) ${firstPage.toFixed(1)} s and a signed-in /home (status ${homePage.status}) ${firstHome.toFixed(1)} s after the database process started (target ≤ ${FIRST_PAGE_S} s ${firstHome <= FIRST_PAGE_S ? "✔" : "✗"}; web process started ${((webStarted - dbStarted) / 1000).toFixed(1)} s after it)`,
  );
  const startMet = firstHome <= FIRST_PAGE_S;
  const docs = await Promise.all(
    BIG_COLLECTIONS.map(async (c) => `${c} ${await portal.collection(c).estimatedDocumentCount()}`),
  );
  say(
    `big collections answer ${((performance.now() - dbStarted) / 1000).toFixed(1)} s after start: ${docs.join(", ")}`,
  );
  // Pages are measured once the background load (and the collections after it) is over, not during it.
  await waitLoaded(client, dbPid);
  say(`database fully loaded and quiet ${((performance.now() - dbStarted) / 1000).toFixed(1)} s after start`);

  // Spec 001's screens, on values the seed wrote (a branch, an RF scenario and cost centre, a competency).
  PAGES.push(...(await spec001Pages(portal)));
  PAGES.splice(0, PAGES.length, ...pagesNamed(PAGES, args.only));

  // 3. 50 sessions per account type the pages need.
  const cookies = new Map<Account, string[]>();
  for (const account of new Set(PAGES.map((p) => p.as))) {
    const list: string[] = [];
    for (let i = 0; i < USERS; i++) list.push(await signIn(base, account));
    cookies.set(account, list);
  }
  await new Promise((r) => setTimeout(r, 2000));
  const idle = { web: rssMb(web.pid), db: rssMb(dbPid) };
  say(`idle RSS: web ${idle.web.toFixed(0)} MB, database ${idle.db.toFixed(0)} MB`);

  // 4. Every page served WARM_REQUESTS times first (see warmUp), then each page: 50 users for SECONDS.
  for (const warning of await warmUp(base, PAGES, (page) => cookies.get(page.as)![0])) say(warning);
  const results: Measure[] = [];
  for (const page of PAGES) results.push(await measure(base, page.name, page.path, cookies.get(page.as)!, SECONDS));
  const loaded = { web: rssMb(web.pid), db: rssMb(dbPid) };
  const healthz = results.find((r) => r.name === "/healthz")!;
  const home = results.find((r) => r.name === "/home")!;
  // The floor of any page: an empty Remix document rendered the portal's way (bench/load/floor-app.tsx), under the
  // same load, while the portal is idle.
  const floor = await startFloorServer();
  let empty: Measure;
  let table: Measure;
  try {
    await measure(floor.base, "warm-up", "/streamed", [], 3);
    empty = await measure(floor.base, "an empty Remix document (floor)", "/streamed", [], SECONDS);
    await measure(floor.base, "warm-up", TABLE_FLOOR.path, [], 3);
    table = await measure(floor.base, "the same behind the portal's route table", TABLE_FLOOR.path, [], SECONDS);
  } finally {
    floor.server.kill("SIGINT");
  }
  say("");
  say(`| page | p50 ms | p95 ms | p99 ms | req/s | errors | p95 ÷ /home p95 | target |`);
  say(`|---|---|---|---|---|---|---|---|`);
  let ok = startMet;
  for (const r of results) {
    const ratio = r.p95 / home.p95;
    let target = "";
    if (r === home) {
      const vsEmpty = home.p95 / empty.p95;
      target = `/home ÷ empty document = ${vsEmpty.toFixed(2)} (≤ 2.5) ${vsEmpty <= 2.5 ? "✔" : "✗"}; ÷ the same behind the route table ${(home.p95 / table.p95).toFixed(2)}; ÷ /healthz ${(home.p95 / healthz.p95).toFixed(2)}`;
      if (vsEmpty > 2.5) ok = false;
    } else if (r !== healthz) {
      target = `≤ 2 ${ratio <= 2 ? "✔" : "✗"}`;
      if (ratio > 2) ok = false;
    }
    if (r.errors > 0) ok = false;
    say(
      `| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.rps.toFixed(0)} | ${r.errors} | ${(r.p95 / home.p95).toFixed(2)} | ${target} |`,
    );
  }
  for (const [floorOf, note] of [
    [empty, "the floor of any page"],
    [table, "the floor of a page of the portal's route table"],
  ] as const)
    say(
      `| ${floorOf.name} | ${floorOf.p50.toFixed(1)} | ${floorOf.p95.toFixed(1)} | ${floorOf.p99.toFixed(1)} | ${floorOf.rps.toFixed(0)} | ${floorOf.errors} | ${(floorOf.p95 / home.p95).toFixed(2)} | ${note} |`,
    );
  say(
    `RSS after the pages: web ${loaded.web.toFixed(0)} MB, database ${loaded.db.toFixed(0)} MB; load average ${load()}`,
  );

  // 5. /healthz while a dashboard recomputes (its data changed): compared with /healthz alone above.
  await portal
    .collection("data_versions")
    .updateOne({ _id: "planning_quantity" as never }, { $inc: { version: 1 } }, { upsert: true });
  // --only may have left the dashboard's account out of the sign-ins above.
  const sysadmin = cookies.get("sysadmin")?.[0] ?? (await signIn(base, "sysadmin"));
  const computing = fetch(`${base}/ij/painel/1`, { headers: { cookie: sysadmin } }).then((r) => r.status);
  const during = await measure(
    base,
    "/healthz during a dashboard computation",
    "/healthz",
    cookies.get("gold")!,
    Math.max(5, SECONDS / 2),
  );
  say(
    `/healthz while /ij/painel/1 recomputes over 1M rows: p95 ${during.p95.toFixed(1)} ms vs ${healthz.p95.toFixed(1)} ms alone (${(during.p95 / healthz.p95).toFixed(2)}x), errors ${during.errors}; the dashboard answered ${await computing}`,
  );

  // 6. Memory during a 300k-row import by the stand-alone worker.
  if (!args["skip-import"]) await importMemory(env, say);

  web.kill("SIGTERM");
  await new Promise((r) => web.once("exit", r));
  await client.close();
  await db.stop?.();
  say(ok ? "all page targets met" : "some page targets missed");
  fs.mkdirSync("bench/load/results", { recursive: true });
  fs.writeFileSync(`bench/load/results/${new Date().toISOString().replace(/[:.]/g, "-")}.md`, `${out.join("\n")}\n`);
  process.exit(ok ? 0 : 1);
}

/** Registers a 300,000-row product CSV and lets `npm run worker:prod` import it, sampling the worker's RSS. */
async function importMemory(env: NodeJS.ProcessEnv, say: (line: string) => void) {
  const rows = 300_000;
  const header =
    "sku;material_description;marca;category_sku;categoria_principal_sku;sub_categoria_sku;hero;abcd;plc_local;plc_global;data_validade_sku";
  const key = `bench-${Date.now()}.csv`;
  const dir = path.join(env.DATA_DIR!, "uploads");
  fs.mkdirSync(dir, { recursive: true });
  const file = fs.createWriteStream(path.join(dir, key));
  file.write(`${header}\n`);
  for (let i = 0; i < rows; i++)
    file.write(
      `BENCH${i};Produto ${i};Marca ${i % 17};CAT${i % 5};Principal ${i % 3};Sub ${i % 9};hero;A;ativo;global;2027-12-31\n`,
    );
  await new Promise((r) => file.end(r));
  const client = new MongoClient(env.MONGODB_URI!);
  const now = new Date();
  const files = client.db("journey_portal").collection("files");
  const { insertedId } = await files.insertOne({
    originalName: "bench-300k.csv",
    originalFile: key,
    bucket: "local",
    user: "gold@demo.local",
    clientName: "journey",
    statusChangeDate: now,
    createdAt: new Date(0),
    status: 0,
    progress: 0,
    message: "",
    agent: "",
    leaseUntil: null,
    attempts: 0,
  });
  const worker = spawn(process.execPath, ["build/host/worker.js"], { env, stdio: ["ignore", "ignore", "inherit"] });
  let peak = 0;
  const started = performance.now();
  for (;;) {
    peak = Math.max(peak, rssMb(worker.pid));
    const doc = await files.findOne({ _id: insertedId });
    if (doc && doc.progress >= 100) {
      say(
        `300k-row import: ${doc.message} in ${((performance.now() - started) / 1000).toFixed(1)} s; worker RSS peak ${peak.toFixed(0)} MB (target ≤ 400 MB ${peak <= 400 ? "✔" : "✗"})`,
      );
      break;
    }
    if (performance.now() - started > 600_000) {
      say("300k-row import did not finish within 10 minutes");
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  worker.kill("SIGTERM");
  await client.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
