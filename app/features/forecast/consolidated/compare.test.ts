import ExcelJS from "exceljs";
import JSZip from "jszip";
import type { Db } from "mongodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer } from "#test/answers";
import { noteDataChanged } from "~/models/dashboard-cache.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_ROLLUPS } from "~/models/forecast-consolidated.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { loader as consolidatedLoader } from "~/routes/ij.forecast_consolidado";
import { loader as excelLoader } from "~/routes/ij.forecast_consolidado.excel";
import { monthOf, monthStartDate } from "~/shared/months";
import { roundTo2 } from "~/shared/numbers";
import { ACCOUNTS, assignPreparer, insertScenario } from "../fixtures";
import { columnSetupOf, valueColumns } from "./columns";
import { CONSOLIDATED_PATH } from "./query";
import { consolidatedTexts as t } from "./texts";
import type { TreeRow } from "./tree";
import { CENTRES, PREVIOUS_RF, RF, signIn, url, useSeededForecast } from "./write-paths.fixture";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The consolidated view's comparisons reconcile on the screen and in its export: when the two sides cover different
 * months, both totals sum the months both cover and say which, and every Δ is the difference of the two totals shown
 * beside it; "vs Realizado" for a year without actuals says so and offers the last year with actuals the viewer may
 * read; the export opens with Excel's outline buttons and its amounts in cents.
 */

const seeded = useSeededForecast({ clear: [FORECAST, FORECAST_HISTORY, FORECAST_ROLLUPS, FORECAST_PREPARERS] });
let db: Db;
const [MARKETING, RETAIL, LOGISTICS] = CENTRES.map((c) => c.cc);
const PREPARER = { email: "prep@example.com", name: "Paula Preparadora", type: "USER GOLD" as const };

beforeEach(() => {
  db = seeded.db;
});

async function view(rf: string, query: string) {
  const request = new Request(url(`${CONSOLIDATED_PATH}?rf=${encodeURIComponent(rf)}&${query}`));
  const answer = await consolidatedLoader({ request, params: {}, context: {} as never });
  return dataAnswer<BodyOf<typeof consolidatedLoader>>(answer).body;
}
type View = Awaited<ReturnType<typeof view>>;

/** A row's figure in a column, as the screen computes it. */
function figuresOf(page: View) {
  const columns = valueColumns(columnSetupOf(page));
  return {
    headers: columns.map((c) => c.header),
    value: (row: TreeRow, id: string) => columns.find((c) => c.id === id)!.value(row),
  };
}

const sum = (list: readonly (number | null)[]) => list.reduce<number>((s, v) => s + (v ?? 0), 0);

describe("a comparison over the months both sides cover", () => {
  it("RF1 2027 against RF4 2026: both totals over jan–ago/27, the Δ their difference, at every level", async () => {
    for (const { cc, level } of CENTRES) {
      await insertScenario(db, "RF4 2026", cc);
      await db.collection(FORECAST).updateMany({ cost_center_concat: cc }, { $set: { level_descr: level } });
    }
    await noteDataChanged([FORECAST], db);
    const page = await view(PREVIOUS_RF, "nivel=3&vs=anterior&cols=total,mes");
    expect(page.compareLabel).toBe("RF4 2026");
    expect(page.common).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const { headers, value } = figuresOf(page);
    expect(headers).toEqual(
      expect.arrayContaining([
        "Total 2027 (ano inteiro)",
        "Total 2027 RF1 2027 (jan–ago/27, 8 de 12 meses)",
        "Total 2027 RF4 2026 (jan–ago/27, 8 de 12 meses)",
        "Δ (jan–ago/27)",
      ]),
    );
    const rows = page.rows as TreeRow[];
    for (const row of rows) {
      const a = value(row, "a_total")!;
      const b = value(row, "b_total")!;
      expect(a, row.key).toBeCloseTo(sum(row.a.slice(0, 8)), 6);
      expect(b, row.key).toBeCloseTo(sum(row.b.slice(0, 8)), 6);
      expect(value(row, "d_total"), row.key).toBeCloseTo(roundTo2(a) - roundTo2(b), 9);
      // September is in RF1 2027's window only: no Δ.
      expect(value(row, "d_2027-09"), row.key).toBeNull();
    }
    // Jan–Aug 2027 are RF1 2027's window positions 14–21 and RF4 2026's 17–24 (the fixture's base + position).
    const company = rows.find((r) => r.key === "total")!;
    const bases = ACCOUNTS.reduce((s, a) => s + a.base, 0);
    expect(value(company, "a_total")).toBeCloseTo(3 * (8 * bases + 3 * (14 + 21) * 4), 6);
    expect(value(company, "b_total")).toBeCloseTo(3 * (8 * bases + 3 * (17 + 24) * 4), 6);
    expect(value(company, "d_total")).toBe(-3 * 3 * 3 * 8);
  });
});

/** Actuals of one account of a cost centre, `value` per month of `year` (month → amount). */
async function insertActuals(cc: string, year: number, amounts: Record<number, number>) {
  await db.collection(FORECAST).insertMany(
    Object.entries(amounts).map(([month, value]) => ({
      rf: "actual",
      cost_center_concat: cc,
      cost_center: cc.split(" - ")[0],
      level_descr: CENTRES.find((c) => c.cc === cc)!.level,
      group_level_2: ACCOUNTS[0].group,
      data_ref: monthStartDate(monthOf(year, Number(month))),
      account_concat: ACCOUNTS[0].account,
      acc_description: ACCOUNTS[0].label,
      value,
      forecast: 0,
    })),
  );
  await noteDataChanged([FORECAST], db);
}

describe("vs Realizado for a year without actuals", () => {
  beforeEach(async () => {
    // Logistics has actuals until October 2026, Marketing only in 2025; 2027 has none yet.
    await insertActuals(
      LOGISTICS,
      2026,
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [i + 1, 100 * (i + 1)])),
    );
    await insertActuals(MARKETING, 2025, { 11: 7, 12: 9 });
  });

  it("says there are none yet and links to the last year with actuals", async () => {
    const page = await view(RF, "nivel=3&vs=realizado");
    expect(page.actualNote).toEqual({
      year: 2027,
      lastYear: 2026,
      href: expect.stringContaining(`vs=${encodeURIComponent("realizado:2026")}`),
    });
    expect(t.noActuals(2027)).toBe("Ainda não há realizado de 2027.");
    expect(t.compareActualsOf(2026)).toBe("Comparar com o realizado de 2026");
    expect(new URL(url(page.actualNote!.href!)).searchParams.get("rf")).toBe(RF);
  });

  it("offers a preparer the last year of their own cost centres' actuals, or none", async () => {
    await assignPreparer(db, PREPARER.email, MARKETING);
    signIn(PREPARER);
    expect((await view(RF, "vs=realizado")).actualNote).toMatchObject({ year: 2027, lastYear: 2025 });
    signIn({ ...PREPARER, email: "nobody@example.com" });
    expect((await view(RF, "vs=realizado")).actualNote).toEqual({ year: 2027, lastYear: null, href: null });
  });

  it("compares each month with the same month of the year asked for, over the months its actuals cover", async () => {
    const page = await view(RF, "nivel=3&vs=realizado:2026&cols=total,mes");
    expect(page.actualNote).toBeNull();
    expect(page.compareYear).toBe(2026);
    expect(page.common).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(page.query.compare).toEqual({ kind: "actual", year: 2026 });
    expect(page.options.map((o) => o.token)).toContain("realizado:2026");
    const { headers, value } = figuresOf(page);
    expect(headers).toContain("Total 2026 Realizado (jan–out/26, 10 de 12 meses)");
    expect(headers).toContain("Total 2027 RF2 2027 (jan–out/27, 10 de 12 meses)");
    const rows = page.rows as TreeRow[];
    const logistics = rows.find((r) => r.key === `c|${LOGISTICS}`)!;
    expect(logistics.b.slice(0, 3)).toEqual([100, 200, 300]);
    expect(value(logistics, "b_total")).toBe(5500);
    expect(value(logistics, "d_total")).toBeCloseTo(roundTo2(value(logistics, "a_total")!) - 5500, 9);
    expect(value(rows.find((r) => r.key === `c|${MARKETING}`)!, "b_total")).toBeNull();
  });

  it("reads a year it cannot take as a query it cannot read", async () => {
    const page = await view(RF, "vs=realizado:99999");
    expect(page.notices).toEqual([t.invalidQuery]);
    expect(page.query.compare).toBeNull();
  });
});

describe("the export", () => {
  async function exported(query: string) {
    const request = new Request(url(`/ij/forecast_consolidado/excel?rf=${encodeURIComponent(RF)}&${query}`));
    const response = (await excelLoader({ request, params: {}, context: {} as never })) as Response;
    const bytes = Buffer.from(await response.arrayBuffer());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const xml = await (await JSZip.loadAsync(bytes)).file("xl/worksheets/sheet1.xml")!.async("string");
    return { sheet: workbook.worksheets[0], xml };
  }

  it("opens with Excel's outline buttons: the deepest level in the sheet's properties, closed levels collapsed", async () => {
    const { sheet, xml } = await exported(`abrir=${encodeURIComponent("a|Comercial")}`);
    expect(sheet.properties.outlineLevelRow).toBe(4);
    expect(xml).toMatch(/<sheetFormatPr[^>]*outlineLevelRow="4"/);
    const rows: { label: string; level: number; collapsed: boolean }[] = [];
    for (const match of xml.matchAll(/<row ([^>]*)>/g)) {
      const attrs = match[1];
      rows.push({
        label: "",
        level: Number(/outlineLevel="(\d)"/.exec(attrs)?.[1] ?? 0),
        collapsed: /collapsed="1"/.test(attrs),
      });
    }
    sheet.eachRow((row, n) => {
      if (n > 1) rows[n - 1].label = String(row.getCell(2).value).trim();
    });
    const of = (label: string) => rows.find((r) => r.label === label)!;
    // Comercial is open; its cost centres are closed (their groups hidden); Operações is closed.
    expect(of("Comercial")).toMatchObject({ level: 1, collapsed: false });
    expect(of(MARKETING)).toMatchObject({ level: 2, collapsed: true });
    expect(of("Operações")).toMatchObject({ level: 1, collapsed: true });
    expect(rows.filter((r) => r.level === 4).every((r) => !r.collapsed)).toBe(true);
  });

  it("holds every amount in cents, rounded half away from zero, and labels the months compared", async () => {
    // January 2027 (an actual month of RF2 2027): Marketing's Salários 0,1 and Encargos 0,025 (shown 0,03): the group
    // sums 0,125, shown 0,13; Vendas Varejo's the same, negative: −0,13.
    const january = monthStartDate(monthOf(2027, 1));
    const set = (cc: string, account: string, value: number) =>
      db.collection(FORECAST).updateOne(
        { rf: RF, cost_center_concat: cc, account_concat: account, data_ref: january },
        {
          $set: { value },
        },
      );
    await set(MARKETING, ACCOUNTS[0].account, 0.1);
    await set(MARKETING, ACCOUNTS[1].account, 0.025);
    await set(RETAIL, ACCOUNTS[0].account, -0.1);
    await set(RETAIL, ACCOUNTS[1].account, -0.025);
    await noteDataChanged([FORECAST], db);
    const { sheet } = await exported("nivel=3&vs=anterior&cols=total,mes");
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const janColumn = header.indexOf("01/2027 Real");
    expect(janColumn).toBeGreaterThan(0);
    const cell = (cc: string, label: string, column: number) => {
      let found: unknown;
      let inCentre = false;
      sheet.eachRow((row) => {
        const text = String(row.getCell(2).value).trim();
        if (text === cc) inCentre = true;
        else if (inCentre && text === label && found === undefined) found = row.getCell(column).value;
      });
      return found;
    };
    expect(cell(MARKETING, ACCOUNTS[1].label, janColumn)).toBe(0.03);
    expect(cell(MARKETING, ACCOUNTS[0].group, janColumn)).toBe(0.13);
    expect(cell(RETAIL, ACCOUNTS[0].group, janColumn)).toBe(-0.13);
    let amounts = 0;
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      row.eachCell((c) => {
        if (typeof c.value !== "number" || c.numFmt !== "#,##0.00") return;
        amounts++;
        expect(Math.round(c.value * 100) / 100, `${n}: ${c.value}`).toBe(c.value);
      });
    });
    expect(amounts).toBeGreaterThan(100);
    expect(header).toContain(`Total 2027 ${PREVIOUS_RF}`);
  });
});
