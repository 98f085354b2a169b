/**
 * Every query the portal's pages make is served by an index declared in its model:
 * over seeded data, each loader and model function runs with `notablescan` on, and fails when it read a
 * collection of 300 documents or more without an index (the scale-10 rule is 10,000; the seed here is
 * smaller, so the bar is lower). New screens add their loaders here or use expectIndexedQueries in their
 * own tests (docs/performance.md).
 */
import { type Db, ObjectId } from "mongodb";
import { beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { getConfig } from "~/config.server";
import { listConfiguredUsers, signInWithPassword } from "~/features/access/accounts.server";
import { loadJobList } from "~/features/uploads-and-jobs/job-list.server";
import { countLoginFailures, emailKey, findLatestOutboxMessage } from "~/models/auth-records.server";
import { noteDataChanged } from "~/models/dashboard-cache.server";
import { listDashboards } from "~/models/dashboard-queries.server";
import { DASHBOARDS } from "~/models/dashboards.server";
import { EXPLORER_DOCUMENTS } from "~/models/explorer.server";
import {
  claimNextJob,
  countFiles,
  countRetryableJobs,
  findFileForDownload,
  finishJob,
  hasActiveJobs,
  isKeyRegistered,
  listFilesPage,
  reportProgress,
  retryJob,
} from "~/models/file-jobs.server";
import { FILES } from "~/models/files.server";
import { FORECAST } from "~/models/forecast.server";
import { findLocalUser } from "~/models/local-users.server";
import { PLANNING_QUANTITY } from "~/models/planning.server";
import {
  countSessionsOfUser,
  findSession,
  findSessionView,
  insertSession,
  touchSession,
} from "~/models/sessions.server";
import { findPermissionRecord, listPermissionRowsPage } from "~/models/user-permissions.server";
import { loader as cockpitLoader } from "~/routes/ij.cockpit";
import { loader as cockpitPreviewLoader } from "~/routes/ij.cockpit_preview";
import { loader as demoFinancialLoader } from "~/routes/ij.demo_financial";
import { loader as explorerLoader } from "~/routes/ij.explorer";
import { loader as fiscalLoader } from "~/routes/ij.fiscal";
import { loader as painelLoader } from "~/routes/ij.painel.$id";
import { loader as planEditLoader } from "~/routes/ij.plan_edit";
import { loader as reportListLoader } from "~/routes/ij.report._index";
import { loader as reviewsLoader } from "~/routes/ij.report.reviews";
import { loader as forecastFilterLoader } from "~/routes/ij.report_create_schneider";
import { loader as forecastGridLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { loader as forecastHistoryLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.history";
import { loader as forecastCalendarLoader } from "~/routes/ij.report_preview_schneider";
import { loader as reportSaveLoader } from "~/routes/ij.report_save";
import { loader as jobsDashboardLoader } from "~/routes/jobs.dashboard.$id";
import { loader as formatLoader } from "~/routes/repo.format";
import { loader as masterDataLoader } from "~/routes/repo.master-data._index";
import { loader as canalLoader } from "~/routes/repo.master-data.canal";
import { loader as planejamentoLoader } from "~/routes/repo.master-data.planejamento";
import { loader as userConfigLoader } from "~/routes/user.config";
import { loader as userPermissionLoader } from "~/routes/user.permission";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "~/seed/accounts";
import { runSeed } from "../../scripts/seed-run";
import { currentUser } from "../auth-mock";
import { useTestDatabase } from "../db";
import { collectionScans, expectIndexedQueries, recordQueryPlans } from "../query-plans";

vi.mock("~/platform/auth/auth.server", () => import("../auth-mock"));

const testDb = useTestDatabase();
const MIN_DOCUMENTS = 300;
let db: Db;

const request = (path: string) => new Request(`http://localhost${path}`);
const args = (path: string, params: Record<string, string> = {}) => ({
  request: request(path),
  params,
  context: {} as never,
});
const indexed = <T>(work: () => Promise<T>) => expectIndexedQueries(db, work, { minDocuments: MIN_DOCUMENTS });
const viewer = { email: "gold@demo.local", name: "Gold", type: "USER GOLD" as const, sessionId: "s" };

beforeAll(async () => {
  db = await testDb.db();
  await runSeed(db, { scale: 0.1, ifEmpty: false, referenceDate: new Date("2026-03-01T00:00:00Z") }, () => undefined);
  // The big collections really are big enough for a scan to count.
  for (const name of [FILES, EXPLORER_DOCUMENTS, "product_master", "planning_quantity"]) {
    expect(await db.collection(name).estimatedDocumentCount()).toBeGreaterThanOrEqual(MIN_DOCUMENTS);
  }
}, 120_000);

describe("every portal query uses an index", () => {
  it("job lists, file repository and downloads", async () => {
    const someone = (await db.collection(FILES).findOne({}, { projection: { user: 1, bucket: 1, originalFile: 1 } }))!;
    await indexed(async () => {
      await loadJobList(request("/jobs/executados?page=3&pageSize=40"), viewer, { ownOnly: false });
      await loadJobList(request("/captura/processando"), { ...viewer, email: someone.user }, { ownOnly: true });
      await listFilesPage({ page: 99_999, pageSize: 20 });
      await listFilesPage({ page: 2, pageSize: 20, user: someone.user });
      await formatLoader(args("/repo/format?page=4"));
      await countFiles();
      await countFiles(someone.user);
      await hasActiveJobs();
      await hasActiveJobs(someone.user);
      await isKeyRegistered(someone.bucket, someone.originalFile);
      await findFileForDownload(String(someone._id));
      await retryJob(new ObjectId(), { email: viewer.email, type: viewer.type });
    });
  });

  it("counts a user's jobs to retry from an index on their failures, not from every job of theirs", async () => {
    // One uploader with 400 jobs, four of them failures to retry (two marked retryable, two unreadable from before).
    const email = "retry-plan@example.com";
    await db.collection(FILES).insertMany(
      Array.from({ length: 400 }, (_, i) => ({
        user: email,
        bucket: "retry-plan",
        originalFile: `retry-plan/${i}.csv`,
        originalName: `${i}.csv`,
        statusChangeDate: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
        createdAt: new Date(Date.UTC(2026, 0, 1)),
        progress: 100,
        ...(i < 2 ? { status: 3, retryable: true } : i < 4 ? { status: 3 } : { status: 0, retryable: false }),
      })),
    );
    const asked = { email, type: "USER GOLD" };
    await db.command({ profile: 2 });
    const count = await countRetryableJobs({ user: asked.email }, asked);
    await db.command({ profile: 0 });
    const entries = await db
      .collection("system.profile")
      .find({ ns: `${db.databaseName}.${FILES}` })
      .toArray();
    await db.collection("system.profile").drop();
    await db.collection(FILES).deleteMany({ bucket: "retry-plan" });
    expect(count).toBe(4);
    expect(entries.at(-1)?.planSummary).toMatch(/user: 1, status: 1, retryable: 1/);
    expect(entries.at(-1)?.keysExamined).toBeLessThanOrEqual(8);
  });

  it("the worker's claim, heartbeat and finish", async () => {
    await indexed(async () => {
      const claim = await claimNextJob({ agent: "test-worker" });
      if (claim) {
        await reportProgress(claim, { progress: 50, message: "x" });
        await finishJob(claim, { status: 0, message: "ok" });
      }
    });
  });

  it("master data", async () => {
    currentUser.type = "USER GOLD";
    await indexed(async () => {
      await masterDataLoader(args("/repo/master-data"));
      await masterDataLoader(args("/repo/master-data?base=ok&collection=product_master&page=7"));
      await masterDataLoader(args("/repo/master-data?base=nok"));
      await canalLoader(args("/repo/master-data/canal?tab=channel&page=2"));
      await planejamentoLoader(args("/repo/master-data/planejamento?section=product&tab=quantity&page=5"));
      await planejamentoLoader(args("/repo/master-data/planejamento?section=planning&tab=spend"));
    });
  });

  it("planning pages, by channel, by SKU and by an attribute (a brand reads its own index in date order)", async () => {
    currentUser.type = "USER GOLD";
    const row = (await db
      .collection("planning_quantity")
      .findOne({ channel: "FSS" }, { projection: { sku: 1, marca: 1, abcd: 1 } }))!;
    const period = "dateStart=1950-12-30&dateEnd=2030-12-30";
    const brandPage = `/ij/plan_edit?skuMode=attributes&chanel=FSS&chanel=ONLINE_PARTNERS&${period}&brand=${encodeURIComponent(row.marca)}&page=3`;
    await indexed(async () => {
      await planEditLoader(args(`/ij/plan_edit?chanel=WHOLESALES&${period}&page=2`));
      await planEditLoader(args(`/ij/plan_edit?skuMode=sku&chanel=FSS&${period}&sku=${encodeURIComponent(row.sku)}`));
      await planEditLoader(
        args(`/ij/plan_edit?skuMode=attributes&chanel=FSS&${period}&abcd=${encodeURIComponent(row.abcd)}&page=2`),
      );
      const brand = await planEditLoader(args(brandPage));
      expect(brand.rows.length).toBeGreaterThan(0);
      expect(brand.rows.every((r) => r.brand === row.marca)).toBe(true);
    });
    const { plans } = await recordQueryPlans(db, () => planEditLoader(args(brandPage)));
    const finds = plans.filter((p) => p.ns.endsWith(".planning_quantity") && p.op === "query");
    expect(finds.map((p) => p.planSummary)).toEqual([
      expect.stringContaining("IXSCAN { marca: 1, channel: 1, creationDate: -1, _id: -1 }"),
    ]);
  });

  it("planning pages by several attributes read the few SKUs their attribute sets name; by hero, ABCD and PLC alone, their own index (item 6)", async () => {
    currentUser.type = "USER GOLD";
    const row = (await db.collection("planning_quantity").findOne({ channel: "FSS" }))!;
    const period = "dateStart=1950-12-30&dateEnd=2030-12-30";
    const every = new URLSearchParams({ skuMode: "attributes", chanel: "FSS" });
    for (const [param, field] of Object.entries({
      brand: "marca",
      category: "category_sku",
      hero: "hero",
      majorCategory: "categoria_principal_sku",
      abcd: "abcd",
      subCategory: "sub_categoria_sku",
      plcLocal: "plc_localsku",
    })) {
      every.append(param, row[field]);
    }
    every.append("chanel", "WHOLESALES");
    const everyPage = `/ij/plan_edit?${every}&${period}`;
    const lowCardinality = `/ij/plan_edit?skuMode=attributes&chanel=FSS&${period}&hero=${encodeURIComponent(row.hero)}&abcd=${encodeURIComponent(row.abcd)}&plcLocal=${encodeURIComponent(row.plc_localsku)}&page=2`;
    const onePlc = `/ij/plan_edit?skuMode=attributes&chanel=WHOLESALES&chanel=BRANDSITE&chanel=ONLINE_PARTNERS&chanel=FSS&${period}&plcLocal=${encodeURIComponent(row.plc_localsku)}&page=3`;
    await indexed(async () => {
      const page = await planEditLoader(args(everyPage));
      expect(page.rows.length).toBeGreaterThan(0);
      expect(
        page.rows.every(
          (r) => r.brand === row.marca && r.category === row.category_sku && r.plcLocal === row.plc_localsku,
        ),
      ).toBe(true);
      await planEditLoader(args(lowCardinality));
      const plc = await planEditLoader(args(onePlc));
      expect(plc.rows.length).toBeGreaterThan(0);
      expect(plc.rows.every((r) => r.plcLocal === row.plc_localsku)).toBe(true);
    });
    const plansOf = async (path: string) => {
      const { plans } = await recordQueryPlans(db, () => planEditLoader(args(path)));
      // (`COUNT`: the estimated count of the data state the kept total is checked against, which reads no document.)
      return plans.filter(
        (p) =>
          p.ns.endsWith(".planning_quantity") &&
          /^(query|count|command)$/.test(p.op) &&
          !("distinct" in p.command) &&
          p.command.limit !== 1 &&
          p.planSummary !== "COUNT",
      );
    };
    // The page reads the named SKUs' rows (in date order, or the few of them sorted); the count reads the sku index alone.
    expect((await plansOf(everyPage)).map((p) => p.planSummary).sort()).toEqual([
      expect.stringContaining("COUNT_SCAN { sku: 1, channel: 1, dateRef: 1 }"),
      expect.stringMatching(/^IXSCAN \{ sku: 1, channel: 1, /),
    ]);
    // The filter's total quantity is read once per filter until the rows change, through the named SKUs' index.
    await noteDataChanged([PLANNING_QUANTITY]);
    expect((await plansOf(everyPage)).map((p) => p.planSummary).sort()).toEqual([
      expect.stringContaining("COUNT_SCAN { sku: 1, channel: 1, dateRef: 1 }"),
      expect.stringMatching(/^IXSCAN \{ sku: 1, channel: 1, /),
      expect.stringMatching(/^IXSCAN \{ sku: 1, channel: 1, /),
    ]);
    // The attribute sets are read in one query, each branch of its $or through an index of its own.
    const { plans: setPlans } = await recordQueryPlans(db, () => planEditLoader(args(everyPage)));
    expect(setPlans.filter((p) => p.ns.endsWith(".planning_attribute_sets")).map((p) => p.planSummary)).toEqual([
      expect.stringMatching(/^IXSCAN \{ \w+: 1 \}, IXSCAN \{ mixed: 1 \}$/),
    ]);
    // Every value of nothing but hero, ABCD and PLC named: the page merges the ranges of their index in date order, the count adds them up.
    for (const path of [lowCardinality, onePlc]) {
      expect((await plansOf(path)).map((p) => p.planSummary).sort()).toEqual([
        expect.stringContaining("COUNT_SCAN { hero: 1, abcd: 1, plc_localsku: 1, channel: 1, dateRef: 1 }"),
        expect.stringContaining("IXSCAN { hero: 1, abcd: 1, plc_localsku: 1, channel: 1, creationDate: -1, _id: -1 }"),
        // its total, first read since the rows changed, through the count's index
        "IXSCAN { hero: 1, abcd: 1, plc_localsku: 1, channel: 1, dateRef: 1 }",
      ]);
    }
  });

  it("the explorer", async () => {
    currentUser.type = "USER GOLD";
    const doc = (await db.collection(EXPLORER_DOCUMENTS).findOne({}))!;
    const [w1, w2] = (doc.words as string[]).filter((w) => w.length > 3);
    await indexed(async () => {
      const found = await explorerLoader(args(`/ij/explorer?search=${encodeURIComponent(`${w1} ${w2}`)}`));
      expect(found.results?.total).toBeGreaterThan(0);
      await explorerLoader(args(`/ij/explorer?search=${encodeURIComponent(`${w1} ${w2}`)}&exactPh=1&page=2`));
    });
  });

  it("native dashboards, once their figures are cached", async () => {
    currentUser.type = "SYSTEM ADMIN";
    const dashboards = await db
      .collection(DASHBOARDS)
      .find({}, { projection: { painelId: 1, panelType: 1 } })
      .toArray();
    expect(dashboards.length).toBeGreaterThan(0);
    const view = (d: (typeof dashboards)[number]) =>
      d.panelType === 1
        ? painelLoader(args(`/ij/painel/${d.painelId}`, { id: String(d.painelId) }))
        : jobsDashboardLoader(args(`/jobs/dashboard/${d.painelId}`, { id: String(d.painelId) }));
    // The first view computes each chart (an aggregation over the whole collection, by nature).
    for (const d of dashboards) await view(d);
    await indexed(async () => {
      await listDashboards("journey");
      for (const d of dashboards) {
        const screen = await view(d);
        if (screen.view.provider === "native") expect(screen.view.charts.filter((c) => c.error)).toEqual([]);
      }
    });
  });

  it("the forecast review: filter, calendar, a cost centre's grid and a cell's history", async () => {
    expect(await db.collection(FORECAST).estimatedDocumentCount()).toBeGreaterThanOrEqual(MIN_DOCUMENTS);
    // A preparer, who reads the cost centres they prepare (the forecast's read rule, whose read is checked here too).
    const assignment = (await db.collection("forecast_preparers").findOne({}))!;
    const cell = (await db
      .collection(FORECAST)
      .findOne(
        { rf: { $ne: "actual" }, cost_center_concat: assignment.cost_center_concat },
        { sort: { data_ref: -1 } },
      ))!;
    const signedIn = currentUser.email;
    Object.assign(currentUser, { type: "USER GOLD", email: assignment.user });
    onTestFinished(() => {
      currentUser.email = signedIn;
    });
    const params = { rf: cell.rf as string, cost_center_concat: cell.cost_center_concat as string };
    const reviewPath = `/ij/report_preview_edit_schneider/${encodeURIComponent(params.rf)}/${encodeURIComponent(params.cost_center_concat)}`;
    const month = (cell.data_ref as Date).toISOString().slice(0, 7);
    await indexed(async () => {
      await forecastFilterLoader(
        args(
          `/ij/report_create_schneider?${new URLSearchParams({ rf: params.rf, cost_center: params.cost_center_concat })}`,
        ),
      );
      await forecastCalendarLoader(args("/ij/report_preview_schneider"));
      const grid = await forecastGridLoader(args(reviewPath, params));
      expect("found" in grid && grid.found).toBe(true);
      await forecastHistoryLoader(
        args(`${reviewPath}/history?${new URLSearchParams({ account: cell.account_concat as string, month })}`, params),
      );
    });
    const { plans } = await recordQueryPlans(db, () => forecastGridLoader(args(reviewPath, params)));
    const window = plans.filter((p) => p.ns.endsWith(`.${FORECAST}`) && /data_ref/.test(JSON.stringify(p.command)));
    // The scenario's window and the actuals kept apart under rf "actual": one read, an interval of the index each.
    expect(window.map((p) => p.planSummary)).toEqual([
      expect.stringContaining("IXSCAN { rf: 1, cost_center_concat: 1, data_ref: 1 }"),
    ]);
    expect(JSON.stringify(window[0].command)).toContain('"$in":["RF');
  });

  it("reports, product reviews, the FP&A report, financial statements, the cockpit and the fiscal asset: no scan of any size", async () => {
    currentUser.type = "USER GOLD";
    // These collections are small in this seed (a scan would not count against the 300 above), so any scan fails here,
    // but the chart of accounts': a lookup list of a few dozen accounts, read whole by nature (the server lets it scan).
    const chartOfAccounts = await db.collection("ledger_accounts").estimatedDocumentCount();
    const { result, error, plans } = await recordQueryPlans(
      db,
      async () => {
        const list = await reportListLoader(args("/ij/report"));
        await reportListLoader(args("/ij/report?origin=manual&page=2"));
        const reviews = await reviewsLoader(args("/ij/report/reviews"));
        await reviewsLoader(args("/ij/report/reviews?nota=5&page=2"));
        const fpa = await reportSaveLoader(args("/ij/report_save?company=2236&period=2026-01"));
        const statements = await demoFinancialLoader(
          args("/ij/demo_financial?company=4313&type=MONTHLY&period=2026-01"),
        );
        await cockpitLoader(args("/ij/cockpit"));
        const cockpit = await cockpitPreviewLoader(args("/ij/cockpit_preview?unit=4313&period=2026-01"));
        const fiscal = await fiscalLoader(args("/ij/fiscal?company=4313"));
        return { list, reviews, fpa, statements, cockpit, fiscal };
      },
      { minDocuments: chartOfAccounts + 1 },
    );
    expect(error).toBeUndefined();
    expect(result!.list.list!.total).toBeGreaterThan(0);
    expect(result!.reviews.list.total).toBe(await db.collection("product_reviews").countDocuments({}));
    expect(result!.fpa.report).not.toBeNull();
    expect(result!.statements.result).not.toBeNull();
    expect("table" in result!.cockpit && result!.cockpit.table).toBeTruthy();
    expect(result!.fiscal.table.rows.length).toBeGreaterThan(0);
    const scans = collectionScans(plans, 0).filter((p) => !p.ns.endsWith(".ledger_accounts"));
    expect(scans.map((p) => `${p.ns} ${p.op} ${JSON.stringify(p.command).slice(0, 120)}`)).toEqual([]);
  });

  it("sign-in, sessions and user administration", async () => {
    currentUser.type = "SYSTEM ADMIN";
    const gold = DEMO_ACCOUNTS.find((a) => a.type === "USER GOLD")!;
    await indexed(async () => {
      const outcome = await signInWithPassword({ email: gold.email, password: DEMO_PASSWORD, ip: "203.0.113.9" });
      expect(outcome.kind).toBe("signedIn");
      await signInWithPassword({ email: gold.email, password: "wrong", ip: "203.0.113.9" });
      await countLoginFailures(emailKey(gold.email), new Date(Date.now() - 3_600_000));
      const session = await insertSession(gold.email, { idleMinutes: 30, absoluteHours: 12 }, new Date());
      await touchSession((await findSession(session._id))!, 30, new Date());
      // A signed-in page's one read of its session, the user's record, unread notices and the menus' dashboards.
      const view = await findSessionView(session._id, getConfig().tenantId);
      expect(view?.permission?.type).toBe("USER GOLD");
      await countSessionsOfUser(gold.email);
      await findPermissionRecord(gold.email);
      await findLocalUser(gold.email);
      await findLatestOutboxMessage(gold.email);
      await listPermissionRowsPage(["USER BRONZE", "USER SILVER", "USER GOLD"], {
        page: 1,
        pageSize: 20,
        includeEmpty: true,
      });
      await listConfiguredUsers({});
      currentUser.type = "USER ADMIN";
      await userConfigLoader(args("/user/config"));
      currentUser.type = "USER PERMISS";
      await userPermissionLoader(args("/user/permission"));
    });
  });
});
