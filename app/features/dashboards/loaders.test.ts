import { EJSON } from "bson";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { useMockServer } from "#test/mocks";
import { type EmbedCall, quicksightEmbedError, quicksightEmbedSuccess } from "#test/mocks/quicksight";
import { resetConfigForTests } from "~/config.server";
import { DASHBOARDS } from "~/models/dashboards.server";
import { loader as painelLoader } from "~/routes/ij.painel.$id";
import { loader as embedUrlLoader } from "~/routes/ij.painel.$id.embed-url";
import { loader as jobsLoader } from "~/routes/jobs.dashboard.$id";
import { CHART_ROW_CAP } from "~/services/dashboards/native.server";
import { dashboardTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
const mock = useMockServer();

const pipeline = (stages: unknown[]) => EJSON.stringify(stages, { relaxed: false });
const args = (path: string, id: string) => ({
  request: new Request(`http://localhost${path}`),
  params: { id },
  context: {} as never,
});

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
  return 200;
}

const TENANT = "journey";

// A business collection a chart may read; the test fills it with its own sales-like rows.
const SALES = "planning_quantity";

beforeAll(async () => {
  const db = await testDb.db();
  await db.collection("sessions").insertOne({ _id: "secret-session" as never, userId: "admin", token: "s3cr3t" });
  await db.collection("local_users").insertOne({ email: "admin@example.com", passwordHash: "hash-that-must-not-leak" });
  await db.collection(SALES).insertMany(
    Array.from({ length: 600 }, (_, i) => ({
      region: ["Sul", "Norte", "Sudeste"][i % 3],
      amount: i,
      day: new Date(Date.UTC(2025, 0, 1 + (i % 5))),
    })),
  );
  await db.collection(DASHBOARDS).insertMany([
    {
      dashboardId: "qs-sales",
      panelLabel: "Vendas",
      panelType: 1,
      painelId: 1,
      cliente: TENANT,
      charts: [
        {
          id: "total",
          title: "Total",
          kind: "kpi",
          collection: SALES,
          pipeline: pipeline([
            { $group: { _id: null, value: { $sum: "$amount" } } },
            { $project: { _id: 0, value: 1 } },
          ]),
        },
        {
          id: "by-region",
          title: "Por região",
          kind: "bar",
          collection: SALES,
          pipeline: pipeline([
            { $group: { _id: "$region", value: { $sum: "$amount" } } },
            { $sort: { _id: 1 } },
            { $project: { _id: 0, label: "$_id", value: 1 } },
          ]),
        },
        {
          id: "by-day",
          title: "Por dia",
          kind: "line",
          collection: SALES,
          pipeline: pipeline([
            { $group: { _id: "$day", value: { $sum: 1 } } },
            { $sort: { _id: 1 } },
            { $project: { _id: 0, label: "$_id", value: 1 } },
          ]),
        },
        {
          id: "all",
          title: "Todas",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $project: { _id: 0, region: 1, amount: 1 } }]),
        },
        {
          id: "evil",
          title: "Escrita",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $match: {} }, { $out: "stolen" }]),
        },
        { id: "broken", title: "Quebrado", kind: "pie", collection: SALES, pipeline: "not json" },
      ],
    },
    { dashboardId: "qs-jobs", panelLabel: "Jobs", panelType: 2, painelId: 2, cliente: TENANT, charts: [] },
    {
      // Stored by hand: stages and collections a chart must never reach, at any depth.
      dashboardId: "qs-hostile",
      panelLabel: "Hostil",
      panelType: 1,
      painelId: 4,
      cliente: TENANT,
      charts: [
        {
          id: "union",
          title: "União",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $unionWith: { coll: "sessions" } }]),
        },
        {
          id: "collstats",
          title: "Estatísticas",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $collStats: { count: {} } }]),
        },
        {
          id: "indexstats",
          title: "Índices",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $indexStats: {} }]),
        },
        {
          id: "plancache",
          title: "Planos",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $planCacheStats: {} }]),
        },
        {
          id: "documents",
          title: "Documentos",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $documents: [{ a: 1 }] }]),
        },
        {
          id: "lookup-sessions",
          title: "Sessões",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $lookup: { from: "sessions", pipeline: [], as: "s" } }]),
        },
        {
          id: "facet-lookup",
          title: "Faceta",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([
            {
              $facet: {
                users: [{ $lookup: { from: "local_users", localField: "x", foreignField: "email", as: "u" } }],
              },
            },
          ]),
        },
        {
          id: "nested-union",
          title: "Sub-pipeline",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $lookup: { from: "files", pipeline: [{ $unionWith: "local_users" }], as: "f" } }]),
        },
        {
          id: "graph-sessions",
          title: "Grafo",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([
            {
              $graphLookup: {
                from: "sessions",
                startWith: "$region",
                connectFromField: "a",
                connectToField: "b",
                as: "g",
              },
            },
          ]),
        },
        {
          id: "own-collection",
          title: "Usuários",
          kind: "table",
          collection: "local_users",
          pipeline: pipeline([{ $match: {} }]),
        },
        {
          id: "code",
          title: "Código",
          kind: "table",
          collection: SALES,
          pipeline: pipeline([{ $match: { $expr: { $function: { body: "return 1", args: [], lang: "js" } } } }]),
        },
        {
          id: "allowed-lookup",
          title: "Permitido",
          kind: "kpi",
          collection: SALES,
          pipeline: pipeline([
            { $lookup: { from: "files", pipeline: [{ $count: "n" }], as: "f" } },
            { $count: "value" },
          ]),
        },
        { title: "Sem tipo", collection: SALES, pipeline: pipeline([]) },
      ],
    },
    // `charts` of the wrong type, written by hand: a screen with one error, never a 500.
    {
      dashboardId: "qs-not-a-list",
      panelLabel: "Mal definido",
      panelType: 1,
      painelId: 5,
      cliente: TENANT,
      charts: { id: "x" },
    },
    { dashboardId: "qs-other", panelLabel: "Outro cliente", panelType: 1, painelId: 3, cliente: "other-tenant" },
  ]);
});

beforeEach(() => {
  currentUser.type = "USER GOLD";
});

describe("dashboard loaders (native provider)", () => {
  it("runs the stored charts with the row cap and pt-BR-ready values", async () => {
    const data = await painelLoader(args("/ij/painel/1", "1"));
    expect(data.dashboard).toEqual({ painelId: 1, panelLabel: "Vendas", panelType: 1 });
    if (data.view.provider !== "native") throw new Error("expected the native provider");
    const byId = Object.fromEntries(data.view.charts.map((c) => [c.id, c]));
    expect(byId.total.rows).toEqual([{ value: (599 * 600) / 2 }]);
    expect(byId["by-region"].rows.map((r) => r.label)).toEqual(["Norte", "Sudeste", "Sul"]);
    expect(byId["by-day"].rows[0]).toEqual({ label: "2025-01-01T00:00:00.000Z", value: 120 });
    expect(byId.all.rows).toHaveLength(CHART_ROW_CAP);
    expect(byId.evil.error).toBe(dashboardTexts.chartStageNotAllowed("$out"));
    expect(byId.broken.error).toBe(dashboardTexts.chartPipelineNotEjson);
    expect(await (await testDb.db()).listCollections({ name: "stolen" }).toArray()).toEqual([]);
  });

  it("refuses stages outside the allowlist and collections outside the business ones, at any depth", async () => {
    const data = await painelLoader(args("/ij/painel/4", "4"));
    if (data.view.provider !== "native") throw new Error("expected the native provider");
    const byId = Object.fromEntries(data.view.charts.map((c) => [c.id, c]));
    expect(byId.union.error).toBe(dashboardTexts.chartStageNotAllowed("$unionWith"));
    expect(byId.collstats.error).toBe(dashboardTexts.chartStageNotAllowed("$collStats"));
    expect(byId.indexstats.error).toBe(dashboardTexts.chartStageNotAllowed("$indexStats"));
    expect(byId.plancache.error).toBe(dashboardTexts.chartStageNotAllowed("$planCacheStats"));
    expect(byId.documents.error).toBe(dashboardTexts.chartStageNotAllowed("$documents"));
    expect(byId["lookup-sessions"].error).toBe(dashboardTexts.chartCollectionNotAllowed("sessions"));
    expect(byId["facet-lookup"].error).toBe(dashboardTexts.chartCollectionNotAllowed("local_users"));
    expect(byId["nested-union"].error).toBe(dashboardTexts.chartStageNotAllowed("$unionWith"));
    expect(byId["graph-sessions"].error).toBe(dashboardTexts.chartCollectionNotAllowed("sessions"));
    expect(byId["own-collection"].error).toBe(dashboardTexts.chartCollectionNotAllowed("local_users"));
    expect(byId.code.error).toBe(dashboardTexts.chartOperatorNotAllowed("$function"));
    // A lookup into a business collection is fine.
    expect(byId["allowed-lookup"]).toMatchObject({ rows: [{ value: 600 }] });
    expect(byId["allowed-lookup"].error).toBeUndefined();
    // A chart without id or kind is shown as a broken chart under its title.
    expect(byId["chart-13"]).toMatchObject({
      title: "Sem tipo",
      rows: [],
      error: dashboardTexts.chartInvalidDefinition,
    });
    // Nothing of the private collections reached the page.
    expect(JSON.stringify(data)).not.toMatch(/s3cr3t|hash-that-must-not-leak|admin@example\.com/);
  });

  it("shows charts that are not a list as one error instead of failing the page", async () => {
    const data = await painelLoader(args("/ij/painel/5", "5"));
    if (data.view.provider !== "native") throw new Error("expected the native provider");
    expect(data.view.charts).toEqual([
      {
        id: "charts",
        title: dashboardTexts.chartFailed,
        kind: "table",
        rows: [],
        labels: {},
        error: dashboardTexts.chartsInvalid,
      },
    ]);
  });

  it("serves executed-jobs dashboards only under /jobs/dashboard and the others only under /ij/painel (403)", async () => {
    expect((await jobsLoader(args("/jobs/dashboard/2", "2"))).dashboard.panelType).toBe(2);
    expect(await status(jobsLoader(args("/jobs/dashboard/1", "1")))).toBe(403);
    expect(await status(painelLoader(args("/ij/painel/2", "2")))).toBe(403);
  });

  it("answers 404 for an unknown id, a non-numeric id and another tenant's dashboard", async () => {
    expect(await status(painelLoader(args("/ij/painel/99", "99")))).toBe(404);
    expect(await status(painelLoader(args("/ij/painel/abc", "abc")))).toBe(404);
    expect(await status(painelLoader(args("/ij/painel/3", "3")))).toBe(404);
  });

  it("answers 403 to a type that may not see dashboards, before reading anything", async () => {
    currentUser.type = "USER BRONZE";
    expect(await status(painelLoader(args("/ij/painel/1", "1")))).toBe(403);
    expect(await status(painelLoader(args("/ij/painel/99", "99")))).toBe(403);
    expect(await status(jobsLoader(args("/jobs/dashboard/2", "2")))).toBe(403);
    currentUser.type = null;
    expect(await status(painelLoader(args("/ij/painel/1", "1")))).toBe(302);
  });

  it("has no embed renewal under the native provider", async () => {
    expect(await status(embedUrlLoader(args("/ij/painel/1/embed-url", "1")))).toBe(404);
  });
});

describe("dashboard loaders (QuickSight provider)", () => {
  const saved = { ...process.env };
  beforeEach(() => {
    Object.assign(process.env, {
      DASHBOARDS: "quicksight",
      QUICKSIGHT_ACCOUNT_ID: "123456789012",
      QUICKSIGHT_SESSION_MINUTES: "30",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "AKIAFAKEFAKEFAKEFAKE",
      AWS_SECRET_ACCESS_KEY: "fake-secret-key-for-tests-only-000000000",
    });
    resetConfigForTests();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterEach(() => {
    for (const key of [
      "DASHBOARDS",
      "QUICKSIGHT_ACCOUNT_ID",
      "QUICKSIGHT_SESSION_MINUTES",
      "AWS_REGION",
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
    ]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    resetConfigForTests();
  });

  it("returns the embed address for the signed-in user and renews it through the resource route", async () => {
    const calls: EmbedCall[] = [];
    mock.use(quicksightEmbedSuccess(calls));
    const data = await painelLoader(args("/ij/painel/1", "1"));
    if (data.view.provider !== "quicksight") throw new Error("expected the QuickSight provider");
    expect(data.view.error).toBeNull();
    expect(data.view.embed?.embedUrl).toContain("qs-sales");
    expect(data.view.embed?.sessionMinutes).toBe(30);
    // A remaining lifetime, not an instant: the browser counts it from receipt.
    expect(data.view.embed?.expiresInMs).toBeGreaterThan(29 * 60_000);
    expect(data.view.embed?.expiresInMs).toBeLessThanOrEqual(30 * 60_000);
    expect(data.view.embed).not.toHaveProperty("sessionExpiresAt");
    expect(calls[0].body.UserArn).toBe("arn:aws:quicksight:us-east-1:123456789012:user/default/gold@example.com");
    expect(JSON.stringify(data)).not.toMatch(/AKIA|secret/i);

    const response = await embedUrlLoader(args("/ij/painel/1/embed-url", "1"));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = (await response.json()) as { embedUrl: string; expiresInMs: number };
    expect(body.embedUrl).toContain("session-2");
    expect(body.expiresInMs).toBeGreaterThan(29 * 60_000);
  });

  it("shows a failed embed as an error message, not a crash", async () => {
    mock.use(quicksightEmbedError("AccessDeniedException", 401));
    const data = await painelLoader(args("/ij/painel/1", "1"));
    expect(data.view).toEqual({ provider: "quicksight", embed: null, error: dashboardTexts.dashboardAccessDenied });
    const response = await embedUrlLoader(args("/ij/painel/1/embed-url", "1"));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: dashboardTexts.dashboardAccessDenied });
  });

  it("guards the renewal route like the page", async () => {
    currentUser.type = "USER SILVER";
    expect(await status(embedUrlLoader(args("/ij/painel/1/embed-url", "1")))).toBe(403);
    currentUser.type = "USER GOLD";
    expect(await status(embedUrlLoader(args("/ij/painel/2/embed-url", "2")))).toBe(403);
  });
});
