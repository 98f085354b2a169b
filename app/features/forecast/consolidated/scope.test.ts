import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer, responseOf } from "#test/answers";
import { resetConfigForTests } from "~/config.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_ROLLUPS } from "~/models/forecast-consolidated.server";
import { FORECAST_CYCLE, FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { FORECAST_VERSION_ROWS, FORECAST_VERSIONS } from "~/models/forecast-versions.server";
import { action } from "~/routes/ij.forecast_consolidado";
import { loader as excelLoader } from "~/routes/ij.forecast_consolidado.excel";
import { action as versionsAction, loader as versionsLoader } from "~/routes/ij.forecast_versoes";
import { consolidatedTexts } from "./texts";
import {
  CENTRES,
  consolidatedRows,
  consolidatedPage as page,
  post,
  RF,
  signIn,
  url,
  useSeededForecast,
} from "./write-paths.fixture";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * Who sees what (docs/decisions.md): a preparer (USER GOLD, the least-privileged reader of the review) sees only the
 * cost centres they prepare, on the screen, in its export, in the versions' list and in a version opened or
 * compared, and their totals are their own; they may neither save nor delete a version. A reviewer type sees all.
 */

const PREPARER = { email: "prep@example.com", name: "Paula Preparadora", type: "USER GOLD" as const };
const NOBODY = { email: "nobody@example.com", name: "Sem Centro", type: "USER GOLD" as const };
const MINE = CENTRES[0].cc;
const OTHERS = CENTRES.slice(1).map((c) => c.cc);

const seeded = useSeededForecast({
  clear: [
    FORECAST,
    FORECAST_HISTORY,
    FORECAST_ROLLUPS,
    FORECAST_VERSIONS,
    FORECAST_VERSION_ROWS,
    FORECAST_CYCLE,
    FORECAST_PREPARERS,
  ],
  users: [PREPARER, NOBODY],
  preparer: { user: PREPARER.email, cc: MINE },
});
let db: Db;

// Before the shared clock's restore, which resets the config (after-hooks run last registered first).
afterAll(() => vi.unstubAllEnvs());
beforeEach(() => {
  db = seeded.db;
});

async function exportedLabels(query = "nivel=3"): Promise<string[]> {
  const request = new Request(url(`/ij/forecast_consolidado/excel?rf=${encodeURIComponent(RF)}&${query}`));
  const response = (await excelLoader({ request, params: {}, context: {} as never })) as Response;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  const labels: string[] = [];
  workbook.worksheets[0].eachRow((row, n) => {
    if (n > 1) labels.push(String(row.getCell(2).value).trim());
  });
  return labels;
}

async function saveVersionAs() {
  const request = post("/ij/forecast_consolidado", { intent: "salvar", rf: RF, nome: "Comitê" });
  return responseOf(action({ request, params: {}, context: {} as never }));
}

const mentionsOthers = (texts: readonly string[]) => texts.filter((t) => OTHERS.some((cc) => t.includes(cc)));

describe("a preparer's consolidated view", () => {
  it("holds only the cost centres they prepare, on screen and in the export, with their own totals", async () => {
    const all = await consolidatedRows();
    const mineTotal = all.find((r) => r.key === `c|${MINE}`)!.aTotal;
    const companyTotal = all.find((r) => r.key === "total")!.aTotal;
    expect(mentionsOthers(all.map((r) => r.key))).not.toEqual([]);

    signIn(PREPARER);
    const seen = await page();
    expect(seen.scope).toEqual([MINE]);
    expect(mentionsOthers(seen.rows.map((r) => r.key))).toEqual([]);
    expect(seen.rows.filter((r) => r.kind === "costCentre").map((r) => r.label)).toEqual([MINE]);
    expect(seen.rows.find((r) => r.key === "total")).toMatchObject({ label: consolidatedTexts.companyScoped });
    expect(seen.rows.find((r) => r.key === "total")!.aTotal).toBe(mineTotal);
    expect(mineTotal).not.toBe(companyTotal);
    expect(seen.summary[0].count).toBe(1);
    expect(seen.canSave).toBe(false);

    const labels = await exportedLabels();
    expect(labels).toContain(MINE);
    expect(mentionsOthers(labels)).toEqual([]);
    expect(labels[0]).toBe(consolidatedTexts.companyScoped);
  });

  it("holds only their cost centres in a version opened, compared and listed; they may not save or delete one", async () => {
    expect((await saveVersionAs()).status).toBe(302);
    const version = (await db.collection(FORECAST_VERSIONS).findOne({}))!;
    const id = version._id.toHexString();

    signIn(PREPARER);
    for (const query of [
      `nivel=3&ver=v:${id}`,
      `nivel=3&vs=v:${id}&cols=total,mes`,
      `nivel=3&ver=v:${id}&vs=anterior`,
    ]) {
      const seen = await page(query);
      expect(mentionsOthers(seen.rows.map((r) => r.key)), query).toEqual([]);
      expect(mentionsOthers(await exportedLabels(query)), query).toEqual([]);
    }
    const opened = await page(`nivel=3&ver=v:${id}`);
    const mine = opened.rows.find((r) => r.key === `c|${MINE}`)!.aTotal!;
    expect(opened.rows.find((r) => r.key === "total")!.aTotal).toBe(mine);

    const request = new Request(url("/ij/forecast_versoes"));
    const list = dataAnswer<BodyOf<typeof versionsLoader>>(
      await versionsLoader({ request, params: {}, context: {} as never }),
    ).body;
    expect(list.scoped).toBe(true);
    expect(list.rows[0].total).toBeCloseTo(mine, 2);
    expect(list.rows[0].total).not.toBeCloseTo(version.total, 2);

    expect((await saveVersionAs()).status).toBe(403);
    const deleting = post("/ij/forecast_versoes", { intent: "excluir", id, motivo: "teste" });
    expect((await responseOf(versionsAction({ request: deleting, params: {}, context: {} as never }))).status).toBe(
      403,
    );
    expect(await db.collection(FORECAST_VERSIONS).countDocuments()).toBe(1);
  });

  it("is empty, with a note, for a reader who prepares nothing", async () => {
    signIn(NOBODY);
    const seen = await page();
    expect(seen.scope).toEqual([]);
    expect(seen.rows.map((r) => r.key)).toEqual(["total"]);
    expect(seen.rows[0].aTotal).toBeNull();
    expect(await exportedLabels()).toEqual([consolidatedTexts.companyScoped]);
  });

  it("is whole for a configured reviewer type (FORECAST_REVIEWER_TYPES)", async () => {
    vi.stubEnv("FORECAST_REVIEWER_TYPES", "USER GOLD");
    resetConfigForTests();
    try {
      signIn(NOBODY);
      const seen = await page();
      expect(seen.scope).toBeNull();
      expect(seen.rows.filter((r) => r.kind === "costCentre")).toHaveLength(CENTRES.length);
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
  });
});
