/**
 * CPU per request of each page of bench/load/pages.ts, in the web process and in the database process, read
 * from /proc before and after a fixed number of requests sent 4 at a time. Once 50 users saturate the two
 * cores, the load bench's latency ratios follow these CPU ratios; measured here without the queueing noise of
 * a 50-user run, so a change to the request path can be judged page by page. A diagnostic beside run.ts: its
 * ratios are to /home and /healthz measured in the same run.
 *
 *   npm run build && npx tsx bench/load/cpu.ts [--data bench/load/.data/scale-10] [--scale 10] [--requests 1000] [--only home,executados] [--profile]
 *
 * Seeds the data directory when it is empty (as run.ts does; both reuse it). --profile writes the web
 * process's .cpuprofile into the data directory.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { MongoClient } from "mongodb";
import { startEmbeddedDbProcess } from "../../server/embedded-mongo/process";
import { WEB_GC_FLAGS } from "../../server/web-flags";
import { benchEnv, cpuMs, freePort, PAGES, repeat, seedIfEmpty, warmUp, signIn, spec001Pages, waitHttp, waitLoaded, type Account } from "./pages";

const { values: args } = parseArgs({
  options: {
    data: { type: "string" },
    scale: { type: "string" },
    requests: { type: "string" },
    only: { type: "string" },
    profile: { type: "boolean" },
  },
});
const SCALE = Number(args.scale ?? 10);
const DATA = path.resolve(args.data ?? `bench/load/.data/scale-${SCALE}`);
const REQUESTS = Number(args.requests ?? 1000);
const CONCURRENCY = 4;

async function main() {
  if (!fs.existsSync("build/host/index.js")) throw new Error("run `npm run build` first");
  fs.mkdirSync(DATA, { recursive: true });
  const env = benchEnv(DATA);
  const db = await startEmbeddedDbProcess(path.join(DATA, "db"), { env });
  env.MONGODB_URI = db.uri;
  const client = new MongoClient(db.uri);
  const dbPid = (await client.db("admin").command({ serverStatus: 1 })).pid as number;
  const portal = client.db("journey_portal");
  await seedIfEmpty(portal, env, SCALE);
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const profile = args.profile ? ["--cpu-prof", `--cpu-prof-dir=${DATA}`] : [];
  const web = spawn(process.execPath, [...WEB_GC_FLAGS, ...profile, "build/host/index.js"], { env: { ...env, PORT: String(port), APP_ORIGIN: base }, stdio: "inherit" });
  await waitHttp(`${base}/healthz`, web);

  // The database loads its collections (and builds their indexes) in the background after it starts, which would be
  // counted against the pages.
  console.log(`database loaded and quiet ${(await waitLoaded(client, dbPid)).toFixed(0)} s after it answered`);

  const pages = [...PAGES, ...(await spec001Pages(portal))];
  const wanted = (args.only ?? "").split(",").map((part) => part.trim()).filter(Boolean);
  const measured = wanted.length === 0 ? pages : pages.filter((p) => p.name === "/healthz" || p.name === "/home" || wanted.some((part) => p.name.includes(part)));
  const cookies = new Map<Account, string>();
  for (const account of new Set(measured.map((p) => p.as))) cookies.set(account, await signIn(base, account));

  // Every page warmed before any is measured (/home, first, would otherwise run colder code than the rest).
  for (const warning of await warmUp(base, measured, (page) => cookies.get(page.as)!)) console.log(warning);
  console.log(`# bench/load/cpu — ${new Date().toISOString()}, ${DATA}, ${REQUESTS} requests per page, ${CONCURRENCY} at a time, load average ${os.loadavg()[0].toFixed(1)}`);
  console.log("| page | bytes | web CPU ms/req | database CPU ms/req | web ÷ /home | web ÷ /healthz |");
  console.log("|---|---|---|---|---|---|");
  const byName = new Map<string, number>();
  for (const page of measured) {
    const headers = { cookie: cookies.get(page.as)!, "accept-encoding": "gzip", accept: "text/html" };
    const get = async () => {
      const res = await fetch(base + page.path, { headers });
      const bytes = (await res.arrayBuffer()).byteLength;
      if (!res.ok) throw new Error(`${page.path} answered ${res.status}`);
      return bytes;
    };
    const bytes = await get();
    const web0 = cpuMs(web.pid!);
    const db0 = cpuMs(dbPid);
    await repeat(REQUESTS, CONCURRENCY, async () => {
      await get();
    });
    const webMs = (cpuMs(web.pid!) - web0) / REQUESTS;
    const dbMs = (cpuMs(dbPid) - db0) / REQUESTS;
    byName.set(page.name, webMs);
    const home = byName.get("/home");
    const healthz = byName.get("/healthz");
    console.log(
      `| ${page.name} | ${bytes} | ${webMs.toFixed(2)} | ${dbMs.toFixed(2)} | ${home ? (webMs / home).toFixed(2) : "—"} | ${healthz ? (webMs / healthz).toFixed(1) : "—"} |`,
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
