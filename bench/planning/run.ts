/**
 * Planning benchmark: the reads of /ij/plan_edit and /ij/report_preview and the batch save, on a
 * seeded database, against a baseline measured in the same run — a point read of one planning row by _id.
 * Each query's winning plan (explain) is printed when the server answers explain; the batch save runs while
 * another connection keeps reading, and that reader's worst wait is reported (does a 1 M-row batch block others?).
 *
 *   npm run db -- --port 27117 --memory &                                     the database in its own process, as in production
 *   MONGODB_URI=mongodb://127.0.0.1:27117/?directConnection=true npm run seed -- --scale 10
 *   MONGODB_URI=mongodb://127.0.0.1:27117/?directConnection=true npx tsx bench/planning/run.ts
 *     DATABASE_NAME=…               the seeded database (default: the portal's)
 *     BENCH_PLANNING_BATCH=0        skip the batch save (it stamps every row; the values stay: +0 %)
 */
import { type Document, MongoClient } from "mongodb";

const RUNS = 15;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(work: () => Promise<unknown>, runs = RUNS): Promise<number> {
  await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await work();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

/** The winning plan's stages, innermost last ("FETCH > IXSCAN channel_creationDate"), or why there is none. */
function planOf(explained: Document): string {
  const stages: string[] = [];
  for (
    let s = explained?.queryPlanner?.winningPlan as Document | undefined;
    s;
    s = s.inputStage as Document | undefined
  ) {
    stages.push(s.indexName ? `${s.stage} ${s.indexName}` : String(s.stage));
  }
  return stages.join(" > ") || "?";
}

async function main() {
  const uri = process.env.MONGODB_URI;
  if (!uri)
    throw new Error("Set MONGODB_URI to a seeded database (see the comment at the top of bench/planning/run.ts).");
  const { getDb, closeDb } = await import("~/db.server");
  const { parseFilter } = await import("~/features/planning/planning");
  const { planningQuery, readPlanningPage, countPlanningRows, saveBatch } = await import(
    "~/models/planning-queries.server"
  );
  const { listAttributeOptions, searchSkus } = await import("~/models/planning-catalogue.server");
  const db = await getDb();
  const rows = db.collection("planning_quantity");
  const total = await rows.estimatedDocumentCount();
  const sample = await rows.findOne({}, { sort: { _id: 1 } });
  if (!sample) throw new Error("the planning collection is empty: seed it first (npm run seed -- --scale 10)");
  const brand = String(sample.marca);
  const skus = (
    await rows
      .find({ channel: "FSS" }, { projection: { sku: 1 } })
      .limit(200)
      .toArray()
  ).map((r) => String(r.sku));
  const filter = (text: string, kind: "plan" | "report" = "plan") => {
    const parsed = parseFilter(new URLSearchParams(text), kind);
    if (!parsed.ok) throw new Error(`bad filter ${text}`);
    return parsed.filter;
  };
  const cases = [
    {
      name: "4 channels, whole period",
      filter: filter("chanel=WHOLESALES&chanel=BRANDSITE&chanel=ONLINE_PARTNERS&chanel=FSS"),
    },
    {
      name: "1 channel, 3 months",
      filter: filter(
        `chanel=FSS&dateStart=${sample.dateRef.toISOString().slice(0, 10)}&dateEnd=${new Date(sample.dateRef.getTime() + 80 * 86_400_000).toISOString().slice(0, 10)}`,
      ),
    },
    {
      name: "2 channels, one brand",
      filter: filter(`chanel=FSS&chanel=WHOLESALES&brand=${encodeURIComponent(brand)}`),
    },
    { name: "1 channel, major category + hero", filter: filter("chanel=BRANDSITE&majorCategory=Makeup&hero=hero") },
    {
      name: "2 channels, 50 SKUs",
      filter: filter(
        `chanel=FSS&chanel=WHOLESALES&skuMode=sku&${[...new Set(skus)]
          .slice(0, 50)
          .map((s) => `sku=${s}`)
          .join("&")}`,
      ),
    },
    { name: "report: every channel, one sub category", filter: filter("subCategory=Batom", "report") },
  ];

  const baseline = await time(() => rows.findOne({ _id: sample._id }));
  console.log(
    `planning_quantity: ${total.toLocaleString("en")} rows; baseline (one row by _id): ${baseline.toFixed(2)} ms\n`,
  );
  const canExplain = await rows
    .find({ _id: sample._id })
    .explain()
    .then(
      () => true,
      () => false,
    );
  const pad = (s: string, n: number) => s.padEnd(n);
  console.log(
    `${pad("filter", 42)} ${pad("rows", 9)} ${pad("page 1", 16)} ${pad("page 50", 16)} ${pad("count", 16)} plans (page / count)`,
  );
  for (const c of cases) {
    const query = planningQuery(c.filter);
    const [page1, page50, count] = [
      await time(() => readPlanningPage(c.filter, 1)),
      await time(() => readPlanningPage(c.filter, 50), 5),
      await time(() => countPlanningRows(c.filter), 5),
    ];
    const n = await countPlanningRows(c.filter);
    let plans = "(explain not supported by this server)";
    if (canExplain) {
      const page = await rows
        .find(query as Document)
        .sort({ creationDate: -1, _id: -1 })
        .limit(20)
        .explain();
      const counted = await db.command({ explain: { count: "planning_quantity", query }, verbosity: "queryPlanner" });
      plans = `${planOf(page)} / ${planOf(counted)}`;
    }
    const cell = (ms: number) => pad(`${ms.toFixed(1)} ms ${(ms / baseline).toFixed(0)}×`, 16);
    console.log(
      `${pad(c.name, 42)} ${pad(n.toLocaleString("en"), 9)} ${cell(page1)} ${cell(page50)} ${cell(count)} ${plans}`,
    );
  }
  const options = await time(() => listAttributeOptions(), 5);
  const search = await time(() => searchSkus("8000"), 5);
  console.log(
    `\nfilter screen: attribute options ${options.toFixed(1)} ms (${(options / baseline).toFixed(0)}×), SKU search ${search.toFixed(1)} ms (${(search / baseline).toFixed(0)}×)`,
  );

  if (process.env.BENCH_PLANNING_BATCH !== "0") {
    // The batch over every row, while another client keeps reading one row at a time.
    const all = cases[0].filter;
    const reader = await new MongoClient(uri).connect();
    const readerRows = reader.db(db.databaseName).collection("planning_quantity");
    const waits: number[] = [];
    let running = true;
    const reading = (async () => {
      while (running) {
        const t = performance.now();
        await readerRows.findOne({ _id: sample._id });
        waits.push(performance.now() - t);
      }
    })();
    const t = performance.now();
    const outcome = await saveBatch({
      user: "bench@local",
      screen: "plan_edit",
      filter: all,
      edit: { percent: 0, op: "increase" },
      loadedAt: new Date(),
    });
    const batchMs = performance.now() - t;
    running = false;
    await reading;
    await reader.close();
    const sorted = [...waits].sort((a, b) => a - b);
    console.log(
      `\nbatch save (+0 %, every row, one updateMany): ${(batchMs / 1000).toFixed(1)} s, ${outcome.kind === "saved" ? outcome.modified.toLocaleString("en") : outcome.kind} rows stamped` +
        `\n  a reader meanwhile: ${waits.length} reads, p50 ${median(waits).toFixed(1)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)]?.toFixed(1)} ms, worst ${sorted[sorted.length - 1]?.toFixed(1)} ms (${(sorted[sorted.length - 1] / baseline).toFixed(0)}× baseline)`,
    );
  }
  await closeDb();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
