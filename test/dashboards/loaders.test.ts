import { EJSON } from "bson";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { DASHBOARDS } from "~/models/dashboards.server";
import { loader as embedUrlLoader } from "~/routes/ij.painel.$id.embed-url";
import { loader as painelLoader } from "~/routes/ij.painel.$id";
import { loader as jobsLoader } from "~/routes/jobs.dashboard.$id";
import { CHART_ROW_CAP } from "~/services/dashboards/native.server";
import { dashboardTexts } from "~/services/dashboards/texts";
import { currentUser } from "../auth-mock";
import { useTestDatabase } from "../db";
import { useMockServer } from "../mocks";
import { quicksightEmbedError, quicksightEmbedSuccess, type EmbedCall } from "../mocks/quicksight";

vi.mock("~/auth.server", () => import("../auth-mock"));

const testDb = useTestDatabase();
const mock = useMockServer();

const pipeline = (stages: unknown[]) => EJSON.stringify(stages, { relaxed: false });
const args = (path: string, id: string) => ({ request: new Request(`http://localhost${path}`), params: { id }, context: {} as never });

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

beforeAll(async () => {
  const db = await testDb.db();
  await db.collection("sales").insertMany(
    Array.from({ length: 600 }, (_, i) => ({ region: ["Sul", "Norte", "Sudeste"][i % 3], amount: i, day: new Date(Date.UTC(2025, 0, 1 + (i % 5))) })),
  );
  await db.collection(DASHBOARDS).insertMany([
    {
      dashboardId: "qs-sales",
      panelLabel: "Vendas",
      panelType: 1,
      painelId: 1,
      cliente: TENANT,
      charts: [
        { id: "total", title: "Total", kind: "kpi", collection: "sales", pipeline: pipeline([{ $group: { _id: null, value: { $sum: "$amount" } } }, { $project: { _id: 0, value: 1 } }]) },
        { id: "by-region", title: "Por região", kind: "bar", collection: "sales", pipeline: pipeline([{ $group: { _id: "$region", value: { $sum: "$amount" } } }, { $sort: { _id: 1 } }, { $project: { _id: 0, label: "$_id", value: 1 } }]) },
        { id: "by-day", title: "Por dia", kind: "line", collection: "sales", pipeline: pipeline([{ $group: { _id: "$day", value: { $sum: 1 } } }, { $sort: { _id: 1 } }, { $project: { _id: 0, label: "$_id", value: 1 } }]) },
        { id: "all", title: "Todas", kind: "table", collection: "sales", pipeline: pipeline([{ $project: { _id: 0, region: 1, amount: 1 } }]) },
        { id: "evil", title: "Escrita", kind: "table", collection: "sales", pipeline: pipeline([{ $match: {} }, { $out: "stolen" }]) },
        { id: "broken", title: "Quebrado", kind: "pie", collection: "sales", pipeline: "not json" },
      ],
    },
    { dashboardId: "qs-jobs", panelLabel: "Jobs", panelType: 2, painelId: 2, cliente: TENANT, charts: [] },
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
    expect(byId.evil.error).toMatch(/\$out is not allowed/);
    expect(byId.broken.error).toBe("pipeline is not valid EJSON");
    expect(await (await testDb.db()).listCollections({ name: "stolen" }).toArray()).toEqual([]);
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
    for (const key of ["DASHBOARDS", "QUICKSIGHT_ACCOUNT_ID", "QUICKSIGHT_SESSION_MINUTES", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]) {
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
    expect(calls[0].body.UserArn).toBe("arn:aws:quicksight:us-east-1:123456789012:user/default/gold@example.com");
    expect(JSON.stringify(data)).not.toMatch(/AKIA|secret/i);

    const response = await embedUrlLoader(args("/ij/painel/1/embed-url", "1"));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = (await response.json()) as { embedUrl: string };
    expect(body.embedUrl).toContain("session-2");
  });

  it("shows a failed embed as an error message, not a crash", async () => {
    mock.use(quicksightEmbedError("AccessDeniedException", 401));
    const data = await painelLoader(args("/ij/painel/1", "1"));
    expect(data.view).toEqual({ provider: "quicksight", embed: null, error: dashboardTexts.accessDenied });
    const response = await embedUrlLoader(args("/ij/painel/1/embed-url", "1"));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: dashboardTexts.accessDenied });
  });

  it("guards the renewal route like the page", async () => {
    currentUser.type = "USER SILVER";
    expect(await status(embedUrlLoader(args("/ij/painel/1/embed-url", "1")))).toBe(403);
    currentUser.type = "USER GOLD";
    expect(await status(embedUrlLoader(args("/ij/painel/2/embed-url", "2")))).toBe(403);
  });
});
