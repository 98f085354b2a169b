import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer } from "#test/answers";
import { expectIndexedQueries } from "#test/query-plans";
import { applyIndexes } from "~/models/all-indexes.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_ROLLUPS } from "~/models/forecast-consolidated.server";
import { FORECAST_CYCLE } from "~/models/forecast-cycle.server";
import { loader as excelLoader } from "~/routes/ij.forecast_consolidado.excel";
import { loader as reviewLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { monthKey, monthOf, monthStartDate } from "~/shared/months";
import { ACCOUNTS } from "../fixtures";
import { reviewPath } from "../forecast-filter";
import { valueColumns } from "./columns";
import { consolidatedTexts } from "./texts";
import {
  ADMIN,
  CENTRES,
  calendar,
  PREVIOUS_RF,
  consolidatedPage as page,
  RF,
  setToday,
  url,
  useSeededForecast,
} from "./write-paths.fixture";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The consolidated view against the review it sums: each account's months are what the review grid shows (actuals
 * taken from the "actual" scenario where the RF has none), comparisons show "—" for a zero or missing base, the
 * cycle's counts and shares per area, "somente aprovados", a query the server cannot read, and the export's outline.
 */

const seeded = useSeededForecast({ clear: [FORECAST, FORECAST_HISTORY, FORECAST_ROLLUPS, FORECAST_CYCLE] });
let db: Db;
const [MARKETING, RETAIL, LOGISTICS] = CENTRES.map((c) => c.cc);
const year = (m: number) => monthOf(calendar.year, m);

beforeAll(async () => {
  await applyIndexes(await seeded.testDb.db());
});
beforeEach(() => {
  db = seeded.db;
});

describe("each account shows what its review shows", () => {
  it("actuals before the RF's first forecast month (from the actual scenario where the RF has none), forecasts after", async () => {
    // January of the year is an actuals column of RF2: its record loses its value, the actual scenario has one, and an
    // account only the actuals know appears.
    const january = monthStartDate(year(1));
    const cell = { rf: RF, cost_center_concat: MARKETING, account_concat: ACCOUNTS[0].account, data_ref: january };
    await db.collection(FORECAST).updateOne(cell, { $unset: { value: "" } });
    const actual = {
      cost_center_concat: MARKETING,
      cost_center: "CC1001",
      level_descr: "Comercial",
      data_ref: january,
      forecast: 0,
      rf: "actual",
    };
    await db.collection(FORECAST).insertMany([
      {
        ...actual,
        group_level_2: ACCOUNTS[0].group,
        account_concat: ACCOUNTS[0].account,
        acc_description: "x",
        value: 777,
      },
      {
        ...actual,
        group_level_2: "Tecnologia",
        account_concat: "4401001 - Licenças",
        acc_description: "Licenças",
        value: 55,
      },
    ]);
    const request = new Request(url(reviewPath(RF, MARKETING)));
    const review = dataAnswer<Extract<BodyOf<typeof reviewLoader>, { found: true }>>(
      await reviewLoader({ request, params: { rf: RF, cost_center_concat: MARKETING }, context: {} as never }),
    ).body;
    const rows = (await page()).rows;
    let compared = 0;
    for (const group of review.grid.groups)
      for (const account of group.accounts) {
        const row = rows.find((r) => r.key === `l|${MARKETING}|${account.account}`)!;
        for (let m = 1; m <= 12; m++) {
          const at = review.grid.months.indexOf(monthKey(year(m)));
          expect(row.a[m - 1], `${account.account} ${m}`).toBe(account.values[at] ?? null);
          compared++;
        }
      }
    expect(compared).toBe(12 * 4);
    expect(rows.find((r) => r.key === `l|${MARKETING}|${ACCOUNTS[0].account}`)!.a[0]).toBe(777);
    expect(rows.find((r) => r.key === `l|${MARKETING}|4401001 - Licenças`)!.a[0]).toBe(55);
  });
});

describe("comparisons", () => {
  it("against the previous RF and the actuals, with — for a zero or missing base", async () => {
    // The previous RF has no Logistics; one of its Marketing cells is zero.
    await db.collection(FORECAST).deleteMany({ rf: PREVIOUS_RF, cost_center_concat: LOGISTICS });
    const march = monthStartDate(year(3));
    await db
      .collection(FORECAST)
      .updateMany(
        { rf: PREVIOUS_RF, cost_center_concat: MARKETING, account_concat: ACCOUNTS[0].account, data_ref: march },
        { $set: { forecast: 0 } },
      );
    const view = await page("nivel=3&vs=anterior&cols=total,mes");
    expect(view.compareLabel).toBe(PREVIOUS_RF);
    const columns = valueColumns({
      months: view.months,
      year: view.year,
      compareLabel: view.compareLabel,
      cols: view.query.cols,
    });
    const value = (key: string, id: string) =>
      columns.find((c) => c.id === id)!.value(view.rows.find((r) => r.key === key)!);
    const logistics = `c|${LOGISTICS}`;
    expect(value(logistics, "b_total")).toBeNull();
    expect(value(logistics, "d_total")).toBeNull();
    expect(value(logistics, "p_total")).toBeNull();
    const cell = `l|${MARKETING}|${ACCOUNTS[0].account}`;
    const m = `${calendar.year}-03`;
    expect(value(cell, `p_${m}`)).toBeNull();
    expect(value(cell, `d_${m}`)).toBe(view.rows.find((r) => r.key === cell)!.a[2]);
    // Against the actuals: no actual scenario here, so every difference is "—".
    const actuals = await page("nivel=3&vs=realizado");
    expect(actuals.rows.every((r) => r.bTotal === null)).toBe(true);
    expect(actuals.query.cols).toEqual(["total"]);
  });
});

describe("the cycle and somente aprovados", () => {
  beforeEach(async () => {
    const record = (cc: string, state: string) => ({
      rf: RF,
      cost_center_concat: cc,
      state,
      changed_at: new Date(),
      changed_by: "x@example.com",
      changed_by_name: "X",
    });
    await db.collection(FORECAST_CYCLE).insertMany([record(MARKETING, "approved"), record(LOGISTICS, "submitted")]);
  });

  it("counts cost centres per state per area and for the company, with shares of the year that add to 100 %", async () => {
    const view = await page();
    const [company, commercial, operations] = view.summary;
    expect([company.area, commercial.area, operations.area]).toEqual([null, "Comercial", "Operações"]);
    const counts = (row: typeof company) => Object.fromEntries(row.states.map((s) => [s.code, s.count]));
    expect(counts(company)).toEqual({ preparing: 1, submitted: 1, returned: 0, approved: 1, not_submitted: 0 });
    expect(counts(commercial)).toMatchObject({ preparing: 1, approved: 1 });
    const total = view.rows.find((r) => r.key === "total")!.aTotal!;
    const approved = view.rows.find((r) => r.key === `c|${MARKETING}`)!.aTotal!;
    expect(company.states.find((s) => s.code === "approved")!.share).toBeCloseTo((approved / total) * 100, 9);
    for (const row of view.summary) expect(row.states.reduce((s, x) => s + (x.share ?? 0), 0)).toBeCloseTo(100, 9);
    // After the edit month, what was never submitted shows as Não enviado.
    setToday("2027-03-05");
    expect(counts((await page()).summary[0])).toMatchObject({ preparing: 0, not_submitted: 1 });
  });

  it("somente aprovados sums only the approved cost centres", async () => {
    const view = await page("nivel=3&aprovados=1");
    expect(view.rows.filter((r) => r.kind === "costCentre").map((r) => r.label)).toEqual([MARKETING]);
    const total = view.rows.find((r) => r.key === "total")!.aTotal;
    expect(total).toBe(view.rows.find((r) => r.key === `c|${MARKETING}`)!.aTotal);
    expect(view.summary[0].count).toBe(3);
  });
});

describe("the address", () => {
  it("a query the server cannot read is answered with the default view and a notice, never an error", async () => {
    const long = "x".repeat(2000);
    const view = await page(`nivel=9&ver=v:nothex&vs=${long}&cols=abc&aprovados=sim&abrir=${long}`);
    expect(view.notices).toEqual([consolidatedTexts.invalidQuery]);
    expect(view.query).toMatchObject({ level: 0, base: { kind: "rf" }, compare: null, approvedOnly: false, open: [] });
    expect(view.rows.map((r) => r.kind)).toEqual(["company", "area", "area"]);
    // A version that does not exist: the live RF, with a notice.
    const missing = await page("vs=v:0123456789abcdef01234567");
    expect(missing.notices).toEqual([consolidatedTexts.versionMissing]);
    expect(missing.compareLabel).toBeNull();
  });

  it("keeps the open rows: the screen sends only those", async () => {
    const view = await page(`abrir=${encodeURIComponent(`a|Operações`)}`);
    expect(view.rows.map((r) => r.key)).toEqual(["total", "a|Comercial", "a|Operações", `c|${LOGISTICS}`]);
    expect(view.excelHref).toBe(`/ij/forecast_consolidado/excel?rf=RF2+2027&abrir=a%7COpera%C3%A7%C3%B5es`);
  });
});

describe("the export", () => {
  it("holds every row with its outline level, hides the rows the screen keeps closed, amounts as numbers", async () => {
    const request = new Request(
      url(
        `/ij/forecast_consolidado/excel?rf=${encodeURIComponent(RF)}&abrir=${encodeURIComponent(`c|${RETAIL}`)}&abrir=a%7CComercial&vs=anterior`,
      ),
    );
    const response = (await excelLoader({ request, params: {}, context: {} as never })) as Response;
    expect(response.headers.get("Content-Disposition")).toContain("forecast-consolidado-RF2-2027.xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows: {
      label: string;
      level: number | undefined;
      hidden: boolean;
      jan: unknown;
      format: string | undefined;
    }[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1)
        rows.push({
          label: String(row.getCell(2).value).trim(),
          level: row.outlineLevel,
          hidden: row.hidden,
          jan: row.getCell(4).value,
          format: row.getCell(4).numFmt,
        });
    });
    const screen = await page(`abrir=${encodeURIComponent(`c|${RETAIL}`)}&abrir=a%7CComercial&vs=anterior`);
    expect(rows.filter((r) => !r.hidden).map((r) => r.label)).toEqual(screen.rows.map((r) => r.label));
    expect(rows.length).toBeGreaterThan(screen.rows.length);
    expect(rows[0]).toMatchObject({ label: consolidatedTexts.company, level: 0, hidden: false, format: "#,##0.00" });
    expect(rows[0].jan).toBe(screen.rows[0].a[0]);
    expect(new Set(rows.map((r) => r.level))).toEqual(new Set([0, 1, 2, 3, 4]));
    const header = sheet.getRow(1).values as unknown[];
    expect(header).toContain(consolidatedTexts.totalOf(calendar.year, PREVIOUS_RF));
  });
});

describe("reads", () => {
  it("every query of the view, a comparison with a version and the versions' list reads an index", async () => {
    const { saveNamedVersion } = await import("../versions/versions.server");
    const saved = await saveNamedVersion(new URLSearchParams({ rf: RF, nome: "Base" }), ADMIN);
    if (!saved.ok) throw new Error("version");
    const id = saved.version._id.toHexString();
    const { loader: versionsLoader } = await import("~/routes/ij.forecast_versoes");
    const options = { minDocuments: 5 };
    const view = await expectIndexedQueries(db, () => page(`nivel=3&vs=v:${id}&cols=total,mes`), options);
    expect(view.rows.length).toBeGreaterThan(10);
    expect(await expectIndexedQueries(db, () => page("nivel=3&ver=anterior&vs=realizado"), options)).toBeTruthy();
    const request = new Request(url(`/ij/forecast_versoes?rf=${encodeURIComponent(RF)}`));
    await expectIndexedQueries(db, () => versionsLoader({ request, params: {}, context: {} as never }), options);
  });
});

describe("figures reused between requests", () => {
  it("show a cycle decision and a deleted version on the very next request", async () => {
    const stateOf = async () =>
      (await page("nivel=1")).rows.find((r) => r.kind === "costCentre" && r.label === MARKETING)?.state;
    expect(await stateOf()).toBe("preparing");
    await db.collection(FORECAST_CYCLE).insertOne({
      rf: RF,
      cost_center_concat: MARKETING,
      state: "approved",
      changed_at: new Date(),
      changed_by: "x@example.com",
      changed_by_name: "X",
    });
    expect(await stateOf()).toBe("approved");

    const { saveNamedVersion } = await import("../versions/versions.server");
    const saved = await saveNamedVersion(new URLSearchParams({ rf: RF, nome: "Antes" }), ADMIN);
    if (!saved.ok) throw new Error("version");
    const compared = `vs=v:${saved.version._id.toHexString()}`;
    expect((await page(compared)).compareLabel).not.toBeNull();
    const { deleteVersion } = await import("~/models/forecast-versions.server");
    await deleteVersion(saved.version._id);
    const after = await page(compared);
    expect(after.compareLabel).toBeNull();
    expect(after.notices).toContain(consolidatedTexts.versionMissing);
  });
});
