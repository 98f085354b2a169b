/**
 * The pages the load benchmarks measure (bench/load/run.ts under 50 users, bench/load/cpu.ts per request, bench/load/ab.ts
 * two builds side by side):
 * add new screens here (a path and the account type that may open it). Also what the benches share to start the
 * production build on a seeded database and sign in.
 */
import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { startEmbeddedDbProcess } from "embedded-mongo/process";
import { type Db, MongoClient } from "mongodb";
import { DEMO_PASSWORD } from "../../app/seed/accounts";
import { WEB_NODE_FLAGS } from "../../server/web-flags";

export type Account = "sysadmin" | "gold" | "useradmin" | "permiss";

export type Page = { name: string; path: string; as: Account };
export const PAGES: Page[] = [
  { name: "/healthz", path: "/healthz", as: "gold" },
  { name: "/home", path: "/home", as: "gold" },
  { name: "/jobs/executados", path: "/jobs/executados", as: "gold" },
  { name: "/jobs/executados (page 1000 of 40)", path: "/jobs/executados?page=1000&pageSize=40", as: "gold" },
  { name: "/captura/processando", path: "/captura/processando", as: "gold" },
  { name: "/repo/format", path: "/repo/format", as: "gold" },
  { name: "/repo/format (page 2000)", path: "/repo/format?page=2000", as: "gold" },
  { name: "/repo/master-data", path: "/repo/master-data", as: "gold" },
  {
    name: "/repo/master-data (product, page 4000)",
    path: "/repo/master-data?base=ok&collection=product_master&page=4000",
    as: "gold",
  },
  { name: "/repo/master-data/canal", path: "/repo/master-data/canal", as: "gold" },
  {
    name: "/repo/master-data/planejamento (spend)",
    path: "/repo/master-data/planejamento?section=planning&tab=spend&page=3",
    as: "gold",
  },
  { name: "/ij/explorer (a query)", path: "/ij/explorer?search=relatorio+vendas", as: "gold" },
  {
    name: "/ij/explorer (exact phrase, page 2)",
    path: "/ij/explorer?search=manutencao+preventiva&exactPh=1&page=2",
    as: "gold",
  },
  { name: "/ij/painel/1 (planning, 1M rows)", path: "/ij/painel/1", as: "sysadmin" },
  { name: "/ij/painel/2 (master data)", path: "/ij/painel/2", as: "sysadmin" },
  { name: "/ij/painel/3 (forecast)", path: "/ij/painel/3", as: "sysadmin" },
  { name: "/ij/painel/4 (stores)", path: "/ij/painel/4", as: "sysadmin" },
  { name: "/jobs/dashboard/5 (jobs)", path: "/jobs/dashboard/5", as: "sysadmin" },
  { name: "/jobs/dashboard/6 (files)", path: "/jobs/dashboard/6", as: "sysadmin" },
  { name: "/user/config", path: "/user/config", as: "useradmin" },
  { name: "/user/permission", path: "/user/permission", as: "permiss" },
];

/** The environment of the production build on the embedded database in `dataDir`, as both load benches run it. */
export function benchEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    ALLOW_EMBEDDED_DB: "1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
    WORKER_IN_PROCESS: "0",
  };
}

export const EMAILS: Record<Account, string> = {
  sysadmin: "sysadmin@demo.local",
  gold: "gold@demo.local",
  useradmin: "useradmin@demo.local",
  permiss: "permiss@demo.local",
};

/**
 * The data pages of spec 001 (planning, reports, financial statements, cockpit, forecast review, HR); the audit trail
 * is seeded up to `auditEntries` first (see auditPages).
 */
export async function spec001Pages(
  portal: Db,
  { auditEntries = AUDIT_BENCH_ENTRIES }: { auditEntries?: number } = {},
): Promise<typeof PAGES> {
  const branch = (
    await portal
      .collection("hr_aux")
      .find({}, { projection: { filial_nome: 1 } })
      .limit(1)
      .next()
  )?.filial_nome as string | undefined;
  const forecast = await portal
    .collection("forecast")
    .find({ rf: { $ne: "actual" } }, { projection: { rf: 1, cost_center_concat: 1, level_descr: 1, group_level_2: 1 } })
    .limit(1)
    .next();
  const pages: typeof PAGES = [
    {
      name: "/ij/plan_edit (WHOLESALES, every period)",
      path: "/ij/plan_edit?chanel=WHOLESALES&dateStart=1950-12-30&dateEnd=2030-12-30",
      as: "gold",
    },
    {
      name: "/ij/plan_edit (a brand, two channels, page 50)",
      path: `/ij/plan_edit?skuMode=attributes&chanel=FSS&chanel=ONLINE_PARTNERS&dateStart=1950-12-30&dateEnd=2030-12-30&brand=${encodeURIComponent(await firstValue(portal, "planning_quantity", "marca"))}&page=50`,
      as: "gold",
    },
    ...(await deepPlanningPages(portal)),
    { name: "/ij/report", path: "/ij/report", as: "gold" },
    { name: "/ij/report (manual, page 2)", path: "/ij/report?origin=manual&page=2", as: "gold" },
    { name: "/ij/demo_financial", path: "/ij/demo_financial?company=4313&type=MONTHLY", as: "gold" },
    { name: "/ij/cockpit", path: "/ij/cockpit", as: "gold" },
    { name: "/ij/report_save (FP&A)", path: "/ij/report_save?company=2236", as: "gold" },
  ];
  pages.push(...(await auditPages(portal, auditEntries)));
  if (branch)
    pages.push({ name: "/ij/rh_edit/{filial}", path: `/ij/rh_edit/${encodeURIComponent(branch)}`, as: "gold" });
  if (forecast) {
    // The forecast cycle's status board of that RF (reviewers: SYSTEM ADMIN), every state, and one state at page 1.
    pages.push(
      {
        name: "/ij/forecast_status (an RF)",
        path: `/ij/forecast_status?rf=${encodeURIComponent(forecast.rf as string)}`,
        as: "sysadmin",
      },
      {
        name: "/ij/forecast_status (a state)",
        path: `/ij/forecast_status?rf=${encodeURIComponent(forecast.rf as string)}&estado=preparing`,
        as: "sysadmin",
      },
    );
    // The consolidated forecast of that RF: the company's view (areas), and a drill-down to one group's accounts.
    const rf = encodeURIComponent(forecast.rf as string);
    const open = [
      `a|${forecast.level_descr}`,
      `c|${forecast.cost_center_concat}`,
      `g|${forecast.cost_center_concat}|${forecast.group_level_2}`,
    ];
    pages.push(
      { name: "/ij/forecast_consolidado (company)", path: `/ij/forecast_consolidado?rf=${rf}`, as: "sysadmin" },
      {
        name: "/ij/forecast_consolidado (area to accounts, vs previous RF)",
        path: `/ij/forecast_consolidado?rf=${rf}&vs=anterior&${open.map((k) => `abrir=${encodeURIComponent(k)}`).join("&")}`,
        as: "sysadmin",
      },
      { name: "/ij/forecast_versoes", path: `/ij/forecast_versoes?rf=${rf}`, as: "sysadmin" },
    );
    pages.push({
      name: "/ij/report_preview_edit_schneider/{rf}/{cc}",
      path: `/ij/report_preview_edit_schneider/${encodeURIComponent(forecast.rf as string)}/${encodeURIComponent(forecast.cost_center_concat as string)}`,
      as: "gold",
    });
  }
  return pages;
}

/** How many audit entries the audit screen is measured over (1,000,000 at scale 10). */
export const AUDIT_BENCH_ENTRIES = 1_000_000;

/**
 * The audit trail's screen over AUDIT_BENCH_ENTRIES entries (seeded once, spread over 30 days, when the log holds
 * fewer): its first page, one user's entries, and one event type in a week (the filters an auditor uses first).
 */
async function auditPages(portal: Db, entries: number): Promise<typeof PAGES> {
  const log = portal.collection("audit_log");
  const have = await log.estimatedDocumentCount();
  if (have < entries) {
    const { seedAuditEntries } = await import("../../app/models/audit.server");
    console.log(`  audit_log: seeding ${(entries - have).toLocaleString("en")} entries…`);
    await seedAuditEntries(entries - have, { db: portal });
  }
  const user = (await log.findOne({ "actor.email": { $type: "string" } }, { projection: { "actor.email": 1 } }))?.actor
    ?.email as string | undefined;
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
  return [
    { name: "/user/audit (1M entries)", path: "/user/audit", as: "sysadmin" },
    ...(user
      ? [
          {
            name: "/user/audit (one user)",
            path: `/user/audit?usuario=${encodeURIComponent(user)}`,
            as: "sysadmin" as const,
          },
        ]
      : []),
    { name: "/user/audit (an event, a week)", path: `/user/audit?evento=dataExported&de=${weekAgo}`, as: "sysadmin" },
  ];
}

/**
 * The planning filter's hard cases (item 6), with the data's own values: every attribute at once (the attributes of
 * one row, so the filter matches a few rows), three attributes of a few values each at page 20, and a rare value (the
 * value of any attribute with the fewest rows, counted from its index) at page 10. A brand at page 50 is in spec001Pages.
 */
async function deepPlanningPages(portal: Db): Promise<typeof PAGES> {
  const rows = portal.collection("planning_quantity");
  const row = await rows
    .find({}, { sort: { _id: 1 } })
    .limit(1)
    .next();
  if (!row) return [];
  const every = new URLSearchParams({
    skuMode: "attributes",
    chanel: "FSS",
    dateStart: "1950-12-30",
    dateEnd: "2030-12-30",
  });
  const params: Record<string, string> = {
    brand: "marca",
    category: "category_sku",
    hero: "hero",
    majorCategory: "categoria_principal_sku",
    abcd: "abcd",
    subCategory: "sub_categoria_sku",
    plcLocal: "plc_localsku",
  };
  for (const [param, field] of Object.entries(params)) every.append(param, String(row[field]));
  every.append("chanel", "WHOLESALES");
  let rare: { param: string; value: string; count: number } | undefined;
  for (const [param, field] of Object.entries(params)) {
    for (const value of await portal.collection("product_master").distinct(field)) {
      if (typeof value !== "string") continue;
      const count = await rows.countDocuments({ [field]: value });
      if (count > 0 && (!rare || count < rare.count)) rare = { param, value, count };
    }
  }
  // Three attributes of a handful of values each: no index holds them in the screen's order.
  const few = new URLSearchParams({
    skuMode: "attributes",
    chanel: "WHOLESALES",
    dateStart: "1950-12-30",
    dateEnd: "2030-12-30",
    hero: String(row.hero),
    abcd: String(row.abcd),
    plcLocal: String(row.plc_localsku),
    page: "20",
  });
  const pages: typeof PAGES = [
    { name: "/ij/plan_edit (every attribute at once)", path: `/ij/plan_edit?${every}`, as: "gold" },
    { name: "/ij/plan_edit (hero, ABCD and PLC, page 20)", path: `/ij/plan_edit?${few}`, as: "gold" },
  ];
  if (rare) {
    const query = new URLSearchParams({
      skuMode: "attributes",
      dateStart: "1950-12-30",
      dateEnd: "2030-12-30",
      [rare.param]: rare.value,
      page: "10",
    });
    for (const channel of ["WHOLESALES", "BRANDSITE", "ONLINE_PARTNERS", "FSS"]) query.append("chanel", channel);
    pages.push({
      name: `/ij/plan_edit (the rarest value, ${rare.param}, ${rare.count} rows, page 10)`,
      path: `/ij/plan_edit?${query}`,
      as: "gold",
    });
  }
  return pages;
}

async function firstValue(portal: Db, collection: string, field: string): Promise<string> {
  const doc = await portal
    .collection(collection)
    .find({}, { projection: { [field]: 1 } })
    .limit(1)
    .next();
  return String(doc?.[field] ?? "");
}

/** The collections of scale 10's volume: reading their counts waits for the database to have loaded them. */
export const BIG_COLLECTIONS = ["planning_quantity", "product_master", "files", "explorer_documents"] as const;

/** Runs `request` `times` times, `parallel` at a time. */
export async function repeat(times: number, parallel: number, request: () => Promise<void>): Promise<void> {
  let sent = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (sent++ < times) await request();
    }),
  );
}

/** Requests per page before any page is measured. */
export const WARM_REQUESTS = 100;

/**
 * Serves every page WARM_REQUESTS times, 4 at a time, before any is measured: a dashboard computes its figures once and
 * the web process compiles the code each page runs, so /home, measured first, is not measured on colder code than
 * the pages compared with it. Returns a warning for each page that answered an error.
 */
export async function warmUp(
  base: string,
  pages: readonly Page[],
  cookieOf: (page: Page) => string,
): Promise<string[]> {
  const warnings: string[] = [];
  for (const page of pages) {
    let refused = 0;
    await repeat(WARM_REQUESTS, 4, async () => {
      const res = await fetch(`${base}${page.path}`, { headers: { cookie: cookieOf(page) } });
      await res.arrayBuffer();
      if (!res.ok) refused = res.status;
    });
    if (refused) warnings.push(`warning: ${page.path} answered ${refused} to the warm-up`);
  }
  return warnings;
}

/** utime + stime of a process, in ms (Linux /proc). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
}

/** Waits until a process spends under `underMs` of CPU in `everyMs`, giving up `untilMs` after `started`. */
export async function untilCpuQuiet(
  pid: number,
  { started, everyMs, underMs, untilMs }: { started: number; everyMs: number; underMs: number; untilMs: number },
): Promise<void> {
  for (let before = cpuMs(pid); performance.now() - started < untilMs; ) {
    await new Promise((r) => setTimeout(r, everyMs));
    const now = cpuMs(pid);
    if (now - before < underMs) return;
    before = now;
  }
}

/**
 * Waits until the database has loaded its data directory: the embedded server says so in `serverStatus`
 * (`embedded.loading`; a real mongod has no such field and is taken as loaded), then until its process has
 * spent under 100 ms of CPU in 2 s (the garbage collections that follow a load), at most 10 minutes.
 * Measuring earlier counts the background load against the pages.
 */
export async function waitLoaded(client: MongoClient, pid: number): Promise<number> {
  const started = performance.now();
  const admin = client.db("admin");
  while (
    (await admin.command({ serverStatus: 1 })).embedded?.loading === true &&
    performance.now() - started < 600_000
  ) {
    await new Promise((r) => setTimeout(r, 1_000));
  }
  await untilCpuQuiet(pid, { started, everyMs: 2_000, underMs: 100, untilMs: 600_000 });
  return (performance.now() - started) / 1000;
}

/** Seeds `scale` into the database of `env` when it holds no portal data yet (later runs reuse the directory). */
export async function seedIfEmpty(
  portal: Db,
  env: NodeJS.ProcessEnv,
  scale: number,
  say: (line: string) => void = console.log,
): Promise<void> {
  if ((await portal.collection("user_permissions").estimatedDocumentCount()) > 0) return;
  say(`seeding scale ${scale} (once; later runs reuse it)…`);
  const seed = spawn(
    process.execPath,
    [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/seed.ts", "--scale", String(scale)],
    { env, stdio: "inherit" },
  );
  const code = await new Promise<number | null>((r) => seed.once("exit", r));
  if (code !== 0) throw new Error(`seed failed (${code})`);
}

/** The options every load bench takes: the data directory, the seed's scale, and `--only` (see pagesNamed). */
export const BENCH_OPTIONS = {
  data: { type: "string" },
  scale: { type: "string" },
  // Comma-separated parts of page names to measure (with /healthz and /home, always): a quick A/B of a change.
  only: { type: "string" },
} as const;

/** The seed's scale (default 10) and the data directory (default bench/load/.data/scale-N) from the benches' options. */
export function benchData(args: { data?: string; scale?: string }): { scale: number; dataDir: string } {
  const scale = Number(args.scale ?? 10);
  return { scale, dataDir: path.resolve(args.data ?? `bench/load/.data/scale-${scale}`) };
}

/**
 * The benches' database: the embedded server as its own process over `dataDir`/db (seeded with `scale` when empty),
 * and the environment a web process needs to reach it.
 */
export async function openBenchDatabase(dataDir: string, scale: number, say: (line: string) => void = console.log) {
  fs.mkdirSync(dataDir, { recursive: true });
  const env = benchEnv(dataDir);
  const db = await startEmbeddedDbProcess(path.join(dataDir, "db"), { env });
  env.MONGODB_URI = db.uri;
  const client = new MongoClient(db.uri);
  await client.connect();
  const dbPid = (await client.db("admin").command({ serverStatus: 1 })).pid as number;
  const portal = client.db("journey_portal");
  await seedIfEmpty(portal, env, scale, say);
  return { env, db, client, dbPid, portal };
}

/** A production web process of one build's host entry (with WEB_NODE_FLAGS, as `npm start`), once it answers /healthz. */
export async function startWebProcess(
  entry: string,
  env: NodeJS.ProcessEnv,
  extraFlags: readonly string[] = [],
): Promise<{ base: string; web: ChildProcess }> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const web = spawn(process.execPath, [...WEB_NODE_FLAGS, ...extraFlags, entry], {
    env: { ...env, PORT: String(port), APP_ORIGIN: base },
    stdio: "inherit",
  });
  await waitHttp(`${base}/healthz`, web);
  return { base, web };
}

/** The pages an `--only` list names by part of their name (all when empty), with the baselines the bench compares to. */
export function pagesNamed(
  pages: readonly Page[],
  only: string | undefined,
  baselines: readonly string[] = ["/healthz", "/home"],
): Page[] {
  const wanted = (only ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  return wanted.length === 0
    ? [...pages]
    : pages.filter((p) => baselines.includes(p.name) || wanted.some((part) => p.name.includes(part)));
}

/**
 * The encodings a browser accepts. The benches ask for what browsers ask for: the web process then compresses as it
 * does for people (Brotli), with the costs that brings (docs/decisions.md, "Platform and hosting").
 */
export const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br";

/** One page as a browser asks for it (Brotli, HTML) with `cookie`; fails on an error status. Its size in bytes. */
export async function fetchPage(base: string, page: Page, cookie: string): Promise<number> {
  const res = await fetch(base + page.path, {
    headers: { cookie, "accept-encoding": BROWSER_ACCEPT_ENCODING, accept: "text/html" },
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (!res.ok) throw new Error(`${base}${page.path} answered ${res.status}`);
  return bytes;
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** Waits until `url` answers 2xx (up to two minutes), or fails when `child` exits first. */
export async function waitHttp(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 1200 && child.exitCode === null; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never answered`);
}

/** Signs a demo account in through the login form; returns its session cookie (name=value). */
export async function signIn(base: string, account: Account): Promise<string> {
  const body = new URLSearchParams({ intent: "signIn", email: EMAILS[account], password: DEMO_PASSWORD });
  const res = await fetch(`${base}/?index`, { method: "POST", body, redirect: "manual", headers: { origin: base } });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__session=") || /session/i.test(c.split("=")[0]));
  if (res.status !== 302 || !cookie) throw new Error(`sign-in of ${account} answered ${res.status}`);
  return cookie.split(";")[0];
}
