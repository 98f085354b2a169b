/**
 * Growth: how the embedded engine's portal query classes and its process memory grow with
 * the data. For each scale s (default 1, 10 and 30, one after the other, each on a fresh temporary data
 * directory removed afterwards) the database is started in its own process exactly as the portal starts it
 * (`startEmbeddedDbProcess`), filled through the official driver with synthetic collections shaped like the
 * portal's, sizes proportional to s (per scale unit 100,000 planning rows, 20,000 ledger rows and 3,000 text
 * documents, plus a 500-account reference collection; scale 10 ≈ the portal's 1.34 M documents), indexes
 * declared before the load as the portal declares them. Then, with 8 concurrent clients, 1,000 operations of
 * each query class (200 of the text class), in five rounds that take the classes in turn (after 100 warm-up
 * operations of every class, then 20 of each class's own), parameters varying per operation and equally selective
 * at every scale for the index-served classes:
 *   - find by brand + month range, newest first, a page of 20 (and the same page 11, skip 200),
 *   - countDocuments of a brand in a month range (planning) and of a cost centre in a month (ledger),
 *   - $group of one cost centre's ledger rows by account (input held at ~83 rows at every scale, see groupMonths),
 *   - the same $group's top 20 accounts $lookup'd into the accounts collection,
 *   - $text search of two words sorted by textScore, limit 20 (its matches grow with the collection).
 * Prints the p50/p95 of every class at every scale and each scale's p95 over the baseline's (scale 1, or the
 * smallest scale when 1 is not run), against the target: index-served classes within 1.5× from scale 1 to 30;
 * each class's plan (explain) with the keys and documents it examines; then per scale the documents, load
 * time (the insertMany calls only, not building the batches), documents/s, the slowest batch (a stall of the
 * server), the database process's RSS (/proc/<pid>/status: VmRSS empty, after the load once idle, and VmHWM,
 * the peak, after the queries) and the CPU the machine's other processes took meanwhile: on 2 CPUs shared with
 * the clients, p95s of a few ms move by tens of per cent between runs, so read a ratio beside that column and
 * the plan's keys / documents examined. A report, not a test: exits 0 whatever the figures. Progress goes to
 * stderr, the report to stdout.
 *
 *   npx tsx bench/engine/growth.ts [scales, default 1,10,30]      e.g. npx tsx bench/engine/growth.ts 0.1,1
 *
 * The report names the node flags the database process runs with (read from /proc: process.ts gives the heap size
 * and GC flags), and a wrapper process's RSS if the pid handed back is not the server's own.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { type EmbeddedDbProcess, startEmbeddedDbProcess } from "embedded-mongo/process";
import { type Collection, type Document, MongoClient } from "mongodb";
import { cpuMs, untilCpuQuiet } from "../load/pages";

const SCALES = (process.argv[2] ?? "1,10,30").split(",").map(Number);
if (SCALES.length === 0 || SCALES.some((s) => !(s > 0)))
  throw new Error(`scales must be positive numbers, e.g. 1,10,30 (got ${process.argv[2]})`);
const BASELINE = SCALES.includes(1) ? 1 : Math.min(...SCALES);
const TARGET = 1.5;
const BATCH = 10_000;
const CLIENTS = 8;
const OPS = 1_000;
/** The text class has no target and costs seconds an operation at scale 30: fewer operations keep the bench short. */
const TEXT_OPS = 200;
const opsOf = (q: QueryClass) => (q.target ? OPS : TEXT_OPS);
const ROUNDS = 5;
const WARM_UP = 20;

// ---------------------------------------------------------------------------------------------------------
// Synthetic data: deterministic (a seeded generator), shaped like the portal's collections.

/** mulberry32: a small seeded generator, so every run and every scale draws the same data. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(rand: () => number, values: readonly T[]): T => values[Math.floor(rand() * values.length)];
const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** 36 months, January 2024 to December 2026, as the first day of each month (UTC). */
const MONTHS = 36;
const month = (k: number) => new Date(Date.UTC(2024 + Math.floor(k / 12), k % 12, 1));
const CHANNELS = ["VAREJO", "ATACADO", "ECOMMERCE", "FRANQUIA"] as const;
const BRANDS = Array.from({ length: 40 }, (_, i) => `MARCA ${pad(i + 1, 2)}`);
const CATEGORIES = [
  "CALÇADOS",
  "BOLSAS",
  "ACESSÓRIOS",
  "VESTUÁRIO",
  "INFANTIL",
  "ESPORTE",
  "PRAIA",
  "INVERNO",
  "CASUAL",
  "SOCIAL",
  "BÁSICOS",
  "OUTLET",
];
const ACCOUNTS = Array.from(
  { length: 500 },
  (_, i) => `${3 + (i % 3)}.${1 + (i % 7)}.${pad(Math.floor(i / 21) + 1, 2)}.${pad(i + 1, 4)} - CONTA ${i + 1}`,
);
const COST_CENTERS = Array.from({ length: 200 }, (_, i) => `CC${pad(1000 + i * 7, 5)} - CENTRO DE CUSTO ${i + 1}`);
const UNITS = ["INDÚSTRIA", "VAREJO", "ATACADO", "E-COMMERCE", "FRANQUIAS", "LOGÍSTICA", "CORPORATIVO", "EXPORTAÇÃO"];
const KINDS = ["nota", "contrato", "relatório", "ata", "política"];

/**
 * ~2,000 made-up Portuguese-looking words (two to four consonant-vowel syllables, some ending in a consonant),
 * in a fixed order taken as their frequency rank: a document draws its words from a Zipf distribution over the
 * ranks (weight 1/rank), so a few words are everywhere and most are rare, as in real text.
 */
const VOCABULARY = (() => {
  const onsets = [
    "b",
    "c",
    "d",
    "f",
    "g",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "ch",
    "lh",
    "nh",
    "br",
    "tr",
    "pr",
    "cr",
  ];
  const vowels = ["a", "e", "i", "o", "u", "ã", "é", "ó"];
  const codas = ["", "", "", "s", "r", "m", "l"];
  const rand = generator(7);
  const words = new Set<string>();
  while (words.size < 2_000) {
    const syllables = 2 + Math.floor(rand() * 3);
    let w = "";
    for (let i = 0; i < syllables; i++) w += pick(rand, onsets) + pick(rand, i === 0 ? vowels.slice(0, 5) : vowels);
    words.add(w + pick(rand, codas));
  }
  return [...words];
})();
/** Cumulative Zipf weights over VOCABULARY's ranks, for drawing a word by binary search. */
const ZIPF = (() => {
  const out = new Float64Array(VOCABULARY.length);
  let sum = 0;
  for (let r = 0; r < VOCABULARY.length; r++) out[r] = sum += 1 / (r + 1);
  for (let r = 0; r < out.length; r++) out[r] /= sum;
  return out;
})();
function word(rand: () => number): string {
  const x = rand();
  let lo = 0;
  let hi = ZIPF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo];
}
const words = (rand: () => number, n: number) => Array.from({ length: n }, () => word(rand)).join(" ");

type Sizes = { planning: number; skus: number; ledger: number; documents: number };
const sizesOf = (s: number): Sizes => ({
  planning: Math.round(100_000 * s),
  skus: Math.max(1, Math.round(10_000 * s)),
  ledger: Math.round(20_000 * s),
  documents: Math.round(3_000 * s),
});

/** The planning rows [from, to): SKU, channel, brand, category and month drawn at random (seeded by position). */
function planningRows(sizes: Sizes, from: number, to: number): Document[] {
  const rand = generator(1_000_003 + from);
  const out: Document[] = [];
  for (let i = from; i < to; i++) {
    out.push({
      sku: `SKU${pad(Math.floor(rand() * sizes.skus), 6)}`,
      channel: pick(rand, CHANNELS),
      creationDate: month(Math.floor(rand() * MONTHS)),
      brand: pick(rand, BRANDS),
      category: pick(rand, CATEGORIES),
      quantity: Math.floor(rand() * 5_000),
      price: Math.round(rand() * 100_000) / 100 + 0.01,
    });
  }
  return out;
}

/**
 * The ledger rows [from, to). Cost centre and month are laid out evenly (row i: cost centre c = i mod 200, month
 * (⌊i / 200⌋ + 11·c) mod 36) so that one cost centre's rows in m months are ≈ 2.78·s·m for every choice of both,
 * within a row a month; account, unit and value are drawn at random.
 */
function ledgerRows(from: number, to: number): Document[] {
  const rand = generator(2_000_003 + from);
  const out: Document[] = [];
  for (let i = from; i < to; i++) {
    out.push({
      account_concat: pick(rand, ACCOUNTS),
      cost_center_concat: COST_CENTERS[i % COST_CENTERS.length],
      data_ref: month((Math.floor(i / COST_CENTERS.length) + 11 * (i % COST_CENTERS.length)) % MONTHS),
      value: Math.round((rand() - 0.3) * 1_000_000) / 100 + 0.001,
      unit: pick(rand, UNITS),
    });
  }
  return out;
}

function documentRows(from: number, to: number): Document[] {
  const rand = generator(3_000_003 + from);
  const out: Document[] = [];
  for (let i = from; i < to; i++) {
    out.push({
      title: words(rand, 3 + Math.floor(rand() * 4)),
      body: words(rand, 24 + Math.floor(rand() * 36)),
      kind: pick(rand, KINDS),
    });
  }
  return out;
}

const accountRows = (): Document[] =>
  ACCOUNTS.map((a, i) => ({ _id: a, name: `Conta ${i + 1}`, group: `GRUPO ${1 + (i % 25)}` }));

// ---------------------------------------------------------------------------------------------------------
// The query classes. Operation k's parameters are the same at every scale.

/** Two words of middling frequency (ranks 100 to 499) for operation k: each is in a few per cent of the documents. */
const search = (k: number) => `${VOCABULARY[100 + ((k * 37) % 400)]} ${VOCABULARY[100 + ((k * 53 + 11) % 400)]}`;

/**
 * The $group's months: one cost centre holds ≈ 2.78·s rows a month, so 30/s months (1 at scale 30, 3 at 10, 30
 * at 1) make its input the same ≈ 83 rows at every scale: the index finds them (cost centre, then the month
 * range), so the work per operation does not grow with the collection. Scales where 30/s is not a whole number
 * of months (or is over 36) get a rounded input, reported beside the timings.
 */
const groupMonths = (s: number) => Math.min(MONTHS, Math.max(1, Math.round(30 / s)));

type QueryClass = {
  name: string;
  /** Index-served with bounded work: held to the 1.5× target. */
  target: boolean;
  /** How the engine serves it, for the report: why its work is (or is not) bounded. */
  work: string;
  /** What one operation returns, for the report: rows, a count or a $group's input (averaged over the run). */
  unit: string;
  /** Runs operation k; resolves to the figure reported under `unit`. */
  run: (k: number) => Promise<number>;
  /** The same operation for explain("executionStats"). */
  explain: (k: number) => Promise<Document>;
};

function queryClasses(client: MongoClient, s: number): QueryClass[] {
  const db = client.db("growth");
  const planning = db.collection("planning");
  const ledger = db.collection("ledger");
  const documents = db.collection("documents");
  // A brand in six months: ≈ 417·s rows, a full page even at skip 200 from scale 1 (scale 0.1 returns fewer).
  const brandRange = (k: number) => {
    const start = (k * 5) % (MONTHS - 6 + 1);
    return { brand: BRANDS[(k * 7) % BRANDS.length], creationDate: { $gte: month(start), $lt: month(start + 6) } };
  };
  const ccMonth = (k: number) => ({
    cost_center_concat: COST_CENTERS[(k * 13) % COST_CENTERS.length],
    data_ref: month((k * 11) % MONTHS),
  });
  const m = groupMonths(s);
  const groupMatch = (k: number) => {
    const start = (k * 7) % (MONTHS - m + 1);
    return {
      cost_center_concat: COST_CENTERS[(k * 17) % COST_CENTERS.length],
      data_ref: { $gte: month(start), $lt: month(start + m) },
    };
  };
  const group = (k: number) => [
    { $match: groupMatch(k) },
    { $group: { _id: "$account_concat", total: { $sum: "$value" }, n: { $sum: 1 } } },
  ];
  const lookup = (k: number) => [
    ...group(k),
    { $sort: { total: -1, _id: 1 } },
    { $limit: 20 },
    { $lookup: { from: "accounts", localField: "_id", foreignField: "_id", as: "account" } },
  ];
  // countDocuments sends this pipeline; explaining it shows the plan the count gets.
  const countPipeline = (filter: Document) => [{ $match: filter }, { $group: { _id: 1, n: { $sum: 1 } } }];
  const page = (k: number, skip: number) =>
    planning.find(brandRange(k)).sort({ creationDate: -1 }).skip(skip).limit(20);
  const text = (k: number) =>
    documents
      .find({ $text: { $search: search(k) } }, { projection: { title: 1, kind: 1, score: { $meta: "textScore" } } })
      .sort({ score: { $meta: "textScore" } })
      .limit(20);
  return [
    {
      name: "find brand + month range, sort, limit 20",
      target: true,
      work: "yes: 20 index entries in sort order, 20 documents fetched",
      unit: "rows",
      run: async (k) => (await page(k, 0).toArray()).length,
      explain: (k) => page(k, 0).explain("executionStats"),
    },
    {
      name: "find, same, skip 200 limit 20 (page 11)",
      target: true,
      work: "yes: the skip moves by rank in the index tree, then as the first page",
      unit: "rows",
      run: async (k) => (await page(k, 200).toArray()).length,
      explain: (k) => page(k, 200).explain("executionStats"),
    },
    {
      name: "count planning brand + month range",
      target: true,
      work: "yes: COUNT_SCAN counts the range by its ranks in the index tree (explain reports the count as keys examined, as mongod does)",
      unit: "count",
      run: (k) => planning.countDocuments(brandRange(k)),
      explain: (k) => planning.aggregate(countPipeline(brandRange(k))).explain("executionStats"),
    },
    {
      name: "count ledger cost centre + month",
      target: true,
      work: "yes: COUNT_SCAN, as above",
      unit: "count",
      run: (k) => ledger.countDocuments(ccMonth(k)),
      explain: (k) => ledger.aggregate(countPipeline(ccMonth(k))).explain("executionStats"),
    },
    {
      name: "$group ledger cost centre + months by account",
      target: true,
      work: "yes: the index finds the same ≈ 83 rows at every scale (30/s months)",
      unit: "input rows",
      run: async (k) => (await ledger.aggregate<{ n: number }>(group(k)).toArray()).reduce((sum, g) => sum + g.n, 0),
      explain: (k) => ledger.aggregate(group(k)).explain("executionStats"),
    },
    {
      name: "$group, top 20, $lookup accounts",
      target: true,
      work: "yes: the $group above, then 20 _id lookups",
      unit: "rows",
      run: async (k) => (await ledger.aggregate(lookup(k)).toArray()).length,
      explain: (k) => ledger.aggregate(lookup(k)).explain("executionStats"),
    },
    {
      name: "$text two words, by textScore, limit 20",
      target: false,
      work: "no: index-served (the words' postings), but every match is fetched and scored before the top 20: grows with s",
      unit: "rows",
      run: async (k) => (await text(k).toArray()).length,
      explain: (k) => text(k).explain("executionStats"),
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Measuring.

type ClassResult = {
  p50: number;
  p95: number;
  mean: number;
  plan: string;
  keys?: number;
  docs?: number;
  matched?: number;
};
type ScaleResult = {
  scale: number;
  documents: number;
  loadMs: number;
  /** The slowest insertMany of the load: a stall of the server shows here. */
  slowestBatchMs: number;
  emptyMb: number;
  idleMb: number;
  peakMb: number;
  afterMb: number;
  /** CPU cores the machine's other processes kept busy (all but the database and this process), during the load and the queries. */
  otherLoad: number;
  otherQueries: number;
  classes: Map<string, ClassResult>;
  error?: string;
};

function status(pid: number): { rssMb: number; hwmMb: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? NaN);
    return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * A clock of the CPU time this machine's other processes use: busy time of every CPU (/proc/stat) less the
 * database process's and this process's own. On a shared machine it says how much the figures had to share.
 */
function otherCpu(dbPid: number): () => number {
  const busyMs = () => {
    const [user, nice, system, , , irq, softirq, steal] = fs
      .readFileSync("/proc/stat", "utf8")
      .split("\n")[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return ((user + nice + system + irq + softirq + steal) * 1000) / 100;
  };
  const mine = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000 + cpuMs(dbPid);
  };
  const start = { at: performance.now(), busy: busyMs(), mine: mine() };
  return () => Math.max(0, busyMs() - start.busy - (mine() - start.mine)) / (performance.now() - start.at);
}

/** At least 3 s, then until the process spends under 50 ms of CPU in a second (the collections after a load), at most 2 minutes. */
async function waitIdle(pid: number): Promise<void> {
  const started = performance.now();
  await new Promise((r) => setTimeout(r, 3_000));
  await untilCpuQuiet(pid, { started, everyMs: 1_000, underMs: 50, untilMs: 120_000 });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** `count` operations of one class (parameters from `offset` on) from CLIENTS concurrent loops: their latencies and figures. */
async function loops(
  q: QueryClass,
  count: number,
  offset: number,
  latencies: number[] = [],
  figures: number[] = [],
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t = performance.now();
        const figure = await q.run(offset + i);
        latencies.push(performance.now() - t);
        figures.push(figure);
      }
    }),
  );
}

/**
 * Every class's operations, measured in ROUNDS rounds that take the classes in turn (each round runs 1/ROUNDS of
 * every class's operations), after WARM_UP of each class's own (other parameters): a slow spell of the machine
 * (another process, a full collection) falls on every class alike instead of on whichever class ran then.
 * Resolves per class to the p50 and p95 of all its operations and the mean figure.
 */
async function measureAll(classes: QueryClass[]): Promise<Map<QueryClass, { p50: number; p95: number; mean: number }>> {
  for (const q of classes) await loops(q, WARM_UP, 100_000);
  const runs = new Map(classes.map((q) => [q, { latencies: [] as number[], figures: [] as number[] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of classes) {
      const per = opsOf(q) / ROUNDS;
      const r = runs.get(q)!;
      await loops(q, per, round * per, r.latencies, r.figures);
    }
  }
  return new Map(
    classes.map((q) => {
      const { latencies, figures } = runs.get(q)!;
      latencies.sort((a, b) => a - b);
      return [
        q,
        {
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
          mean: figures.reduce((a, b) => a + b, 0) / figures.length,
        },
      ];
    }),
  );
}

/** The winning plan's stages, outermost first, with the indexes they scan, and the keys and documents examined. */
function planOf(explain: Document): { plan: string; keys?: number; docs?: number } {
  const stages: string[] = [];
  let keys: number | undefined;
  let docs: number | undefined;
  const walkPlan = (p: unknown): void => {
    if (!p || typeof p !== "object") return;
    const o = p as Record<string, unknown>;
    if (typeof o.stage === "string") stages.push(o.indexName ? `${o.stage}(${o.indexName})` : o.stage);
    if (o.inputStage) walkPlan(o.inputStage);
    if (Array.isArray(o.inputStages)) {
      const inner = new Set<string>();
      for (const s of o.inputStages) {
        const before = stages.length;
        walkPlan(s);
        stages.splice(before).forEach((x) => {
          inner.add(x);
        });
      }
      stages.push(`[${[...inner].join(" > ")}]×${o.inputStages.length}`);
    }
  };
  // A find's explain holds queryPlanner and executionStats at the top; an aggregate's, in its first stage
  // ($cursor), followed by the pipeline's other stages.
  const walk = (o: Record<string, unknown>): void => {
    const plan = (o.queryPlanner as Record<string, unknown> | undefined)?.winningPlan;
    if (plan) walkPlan(plan);
    const es = o.executionStats as Record<string, unknown> | undefined;
    if (typeof es?.totalKeysExamined === "number") keys = (keys ?? 0) + es.totalKeysExamined;
    if (typeof es?.totalDocsExamined === "number") docs = (docs ?? 0) + es.totalDocsExamined;
  };
  walk(explain);
  for (const stage of Array.isArray(explain.stages) ? (explain.stages as Record<string, unknown>[]) : []) {
    if (stage.$cursor && typeof stage.$cursor === "object") walk(stage.$cursor as Record<string, unknown>);
    else stages.push(Object.keys(stage).find((k) => k.startsWith("$")) ?? "?");
  }
  return { plan: stages.length ? stages.join(" > ") : "—", keys, docs };
}

function say(line: string): void {
  console.error(`[growth ${new Date().toISOString().slice(11, 19)}] ${line}`);
}

/** Inserts `total` documents in batches of BATCH; adds the insertMany calls' time (not the batches' making) to the result. */
async function insertAll(
  result: ScaleResult,
  coll: Collection,
  total: number,
  make: (from: number, to: number) => Document[],
  onBatch: () => void,
): Promise<void> {
  for (let from = 0; from < total; from += BATCH) {
    const batch = make(from, Math.min(total, from + BATCH));
    const t = performance.now();
    await coll.insertMany(batch, { ordered: false });
    const ms = performance.now() - t;
    result.loadMs += ms;
    result.slowestBatchMs = Math.max(result.slowestBatchMs, ms);
    onBatch();
  }
}

/** The node flags the database process actually runs with (from /proc), for the report. */
function flagsOf(pid: number): string {
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const env = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    const flags = args.filter((a) =>
      /^--(max-old-space-size|heap-growing-percent|no-memory-reducer|max-semi-space-size)/.test(a),
    );
    const nodeOptions = env.find((e) => e.startsWith("NODE_OPTIONS="))?.slice("NODE_OPTIONS=".length);
    return [...flags, ...(nodeOptions ? [`NODE_OPTIONS="${nodeOptions}"`] : [])].join(" ");
  } catch {
    return "?";
  }
}

let serverNote = "";

async function runScale(s: number): Promise<ScaleResult> {
  const sizes = sizesOf(s);
  const result: ScaleResult = {
    scale: s,
    documents: 0,
    loadMs: 0,
    slowestBatchMs: 0,
    emptyMb: NaN,
    idleMb: NaN,
    peakMb: NaN,
    afterMb: NaN,
    otherLoad: NaN,
    otherQueries: NaN,
    classes: new Map(),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "growth-"));
  let server: EmbeddedDbProcess | undefined;
  let client: MongoClient | undefined;
  let pid = 0;
  const sample = () => {
    const st = pid ? status(pid) : undefined;
    if (st) {
      result.afterMb = st.rssMb;
      result.peakMb = st.hwmMb;
    }
  };
  try {
    say(`scale ${s}: starting the database on ${dir}`);
    server = await startEmbeddedDbProcess(path.join(dir, "db"), { log: () => {} });
    client = new MongoClient(server.uri, { maxPoolSize: CLIENTS * 2 });
    await client.connect();
    // The process that holds the data: under tsx, the CLI's child, not the pid startEmbeddedDbProcess knows.
    pid = Number((await client.db("admin").command({ serverStatus: 1 })).pid);
    if (!serverNote) {
      const wrapper = server.pid && server.pid !== pid ? status(server.pid) : undefined;
      const flags = flagsOf(pid);
      serverNote =
        `database process ${pid}` +
        (wrapper
          ? ` (the child of tsx's CLI, pid ${server.pid}, ${wrapper.rssMb.toFixed(0)} MB more RSS, not counted below)`
          : "") +
        `; its node flags: ${flags || `none — V8's default heap limit (${(v8.getHeapStatistics().heap_size_limit / 2 ** 20).toFixed(0)} MB on this machine) and no GC flags`}`;
    }
    result.emptyMb = status(pid)?.rssMb ?? NaN;

    const db = client.db("growth");
    const planning = db.collection("planning");
    const ledger = db.collection("ledger");
    const documents = db.collection("documents");
    const accounts = db.collection("accounts");
    // Indexes first, as the portal declares them before any data arrives.
    await planning.createIndexes([
      { key: { sku: 1, channel: 1, creationDate: 1 } },
      { key: { brand: 1, creationDate: -1 } },
      { key: { creationDate: -1 } },
    ]);
    await ledger.createIndexes([
      { key: { cost_center_concat: 1, data_ref: 1 } },
      { key: { data_ref: 1, account_concat: 1 } },
    ]);
    await documents.createIndex({ title: "text", body: "text" }, { default_language: "portuguese" });

    const total = 500 + sizes.planning + sizes.ledger + sizes.documents;
    let lastSay = performance.now();
    const onBatch = () => {
      sample();
      if (performance.now() - lastSay > 15_000) {
        lastSay = performance.now();
        say(
          `scale ${s}: loading… ${result.documents.toLocaleString("en")} of ${total.toLocaleString("en")} documents, RSS ${result.afterMb.toFixed(0)} MB, slowest batch so far ${(result.slowestBatchMs / 1000).toFixed(1)} s`,
        );
      }
    };
    const counted = (make: (from: number, to: number) => Document[]) => (from: number, to: number) => {
      result.documents += to - from;
      return make(from, to);
    };
    say(`scale ${s}: loading ${total.toLocaleString("en")} documents`);
    const othersDuringLoad = otherCpu(pid);
    await insertAll(
      result,
      accounts,
      ACCOUNTS.length,
      counted(() => accountRows()),
      onBatch,
    );
    await insertAll(
      result,
      planning,
      sizes.planning,
      counted((f, t) => planningRows(sizes, f, t)),
      onBatch,
    );
    await insertAll(result, ledger, sizes.ledger, counted(ledgerRows), onBatch);
    await insertAll(result, documents, sizes.documents, counted(documentRows), onBatch);
    const stored = (
      await Promise.all([planning, ledger, documents, accounts].map((c) => c.estimatedDocumentCount()))
    ).reduce((a, b) => a + b, 0);
    if (stored !== total) throw new Error(`${stored} documents stored of ${total}`);
    result.otherLoad = othersDuringLoad();

    say(`scale ${s}: loaded in ${(result.loadMs / 1000).toFixed(1)} s; waiting until idle`);
    await waitIdle(pid);
    result.idleMb = status(pid)?.rssMb ?? NaN;

    // Every class's code compiled before any is measured: otherwise the first class measured pays for the
    // optimising compiler at the baseline scale (whose process is young) more than at the others.
    const classes = queryClasses(client, s);
    const othersDuringQueries = otherCpu(pid);
    for (const q of classes) await loops(q, 5 * WARM_UP, 200_000);
    say(`scale ${s}: ${classes.length} classes, ${ROUNDS} rounds`);
    const timings = await measureAll(classes);
    for (const q of classes) {
      const timing = timings.get(q)!;
      let plan: ReturnType<typeof planOf> = { plan: "—" };
      try {
        plan = planOf(await q.explain(0));
      } catch (e) {
        plan = { plan: `explain failed: ${(e as Error).message}` };
      }
      const r: ClassResult = { ...timing, ...plan };
      if (!q.target) {
        // How many documents the text stage scores per search (the sort needs them all): 50 of the searches.
        const docs = client.db("growth").collection("documents");
        let matched = 0;
        for (let k = 0; k < 50; k++) {
          matched += await docs.countDocuments({ $text: { $search: search(k) } });
        }
        r.matched = matched / 50;
      }
      result.classes.set(q.name, r);
      sample();
    }
    result.otherQueries = othersDuringQueries();
  } catch (e) {
    result.error = (e as Error).message.split("\n")[0];
    say(`scale ${s} failed: ${(e as Error).stack ?? e}`);
    sample();
  } finally {
    await client?.close().catch(() => {});
    await server?.stop?.().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// The report.

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
const startLoad = loadAverage();
const results: ScaleResult[] = [];
for (const s of SCALES) results.push(await runScale(s));

const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? "—" : v < 10 ? v.toFixed(2) : v.toFixed(1));
const mb = (v: number) => (Number.isNaN(v) ? "—" : v.toFixed(0));
const base = results.find((r) => r.scale === BASELINE);
const names = queryClasses(new MongoClient("mongodb://127.0.0.1:1"), 1);
const others = results.filter((r) => r !== base);
const out: string[] = [];
out.push(
  `# bench/engine/growth — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB`,
);
out.push(`load average at start ${startLoad}, at the end ${loadAverage()}`);
out.push(
  `${CLIENTS} concurrent clients, ${OPS} operations per class (${TEXT_OPS} of the text class) in ${ROUNDS} rounds taking the classes in turn, after ${5 * WARM_UP} warm-up operations of every class and ${WARM_UP} of its own; baseline scale ${BASELINE}; target: index-served classes' p95 ≤ ${TARGET}× the baseline's`,
);
out.push(serverNote);
out.push("");
const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
out.push(
  row([
    "query class",
    ...results.map((r) => `s=${r.scale} p50 / p95 ms`),
    ...others.map((r) => `p95 s=${r.scale} ÷ s=${BASELINE}`),
  ]),
);
out.push(`|---|${results.map(() => "---:|").join("")}${others.map(() => "---:|").join("")}`);
for (const q of names) {
  const cells = results.map((r) => {
    const c = r.classes.get(q.name);
    return c ? `${ms(c.p50)} / ${ms(c.p95)}` : "—";
  });
  const ratios = others.map((r) => {
    const c = r.classes.get(q.name);
    const b = base?.classes.get(q.name);
    if (!c || !b) return "—";
    const ratio = c.p95 / b.p95;
    return q.target ? `${ratio.toFixed(2)}× ${ratio <= TARGET ? "✔" : "✗"}` : `${ratio.toFixed(2)}× (no target)`;
  });
  out.push(row([q.name, ...cells, ...ratios]));
}
out.push("");
out.push(
  "Work per operation (explain of operation 0, executionStats; keys / documents examined) and the mean figure each operation returned:",
);
out.push("");
out.push(
  `| query class | plan (at s=${results[results.length - 1]?.scale}) | ${results.map((r) => `s=${r.scale} keys / docs · mean`).join(" | ")} | bounded |`,
);
out.push(`|---|---|${results.map(() => "---:|").join("")}---|`);
for (const q of names) {
  const last = [...results]
    .reverse()
    .find((r) => r.classes.has(q.name))
    ?.classes.get(q.name);
  const cells = results.map((r) => {
    const c = r.classes.get(q.name);
    if (!c) return "—";
    const fig = `${c.mean.toFixed(c.mean < 100 ? 1 : 0)} ${q.unit}${c.matched !== undefined ? `, ${c.matched.toFixed(0)} matched` : ""}`;
    return `${c.keys ?? "?"} / ${c.docs ?? "?"} · ${fig}`;
  });
  out.push(row([q.name, last?.plan ?? "—", ...cells, q.work]));
}
out.push("");
out.push(
  "| scale | documents | load s | documents/s | slowest batch s | RSS empty MB | RSS idle after load MB | idle − empty per M documents MB | RSS after queries MB | peak RSS (VmHWM) MB | other processes' CPU, cores: load / queries |",
);
out.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results) {
  const perM = ((r.idleMb - r.emptyMb) / r.documents) * 1e6;
  const cores = (v: number) => (Number.isNaN(v) ? "—" : v.toFixed(2));
  out.push(
    row([
      String(r.scale),
      r.documents.toLocaleString("en"),
      (r.loadMs / 1000).toFixed(1),
      Math.round(r.documents / (r.loadMs / 1000)).toLocaleString("en"),
      (r.slowestBatchMs / 1000).toFixed(2),
      mb(r.emptyMb),
      mb(r.idleMb),
      mb(perM),
      mb(r.afterMb),
      mb(r.peakMb),
      `${cores(r.otherLoad)} / ${cores(r.otherQueries)}`,
    ]),
  );
}
for (const r of results)
  if (r.error)
    out.push(
      `scale ${r.scale} FAILED: ${r.error} (figures above are the last seen: ${r.documents.toLocaleString("en")} documents sent)`,
    );
console.log(out.join("\n"));
process.exit(0);
