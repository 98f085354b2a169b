import type { Db } from "mongodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer } from "#test/answers";
import { noteDataChanged } from "~/models/dashboard-cache.server";
import { FORECAST, FORECAST_HISTORY, saveForecastCells } from "~/models/forecast.server";
import { FORECAST_ROLLUPS } from "~/models/forecast-consolidated.server";
import { FORECAST_VERSION_ROWS, FORECAST_VERSIONS } from "~/models/forecast-versions.server";
import { loader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { monthKey, monthStartDate } from "~/shared/months";
import { ADMIN, CENTRES, calendar, PREVIOUS_RF, RF, useSeededForecast } from "../consolidated/write-paths.fixture";
import { ACCOUNTS, insertScenario } from "../fixtures";
import { reviewPath } from "../forecast-filter";
import { type VarianceColumnMeta, varianceColumnDefs, varianceText } from "../variance-columns";
import { saveNamedVersion } from "./versions.server";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The review grid's "vs versão" group (`?versao=<id>`): the grid's values against a saved version of the cost centre,
 * per month and per annual total, at accounts, group totals and the cost centre's total; the versions offered; with
 * or without the other variance groups; an unknown version leaves the grid as it was.
 */

const seeded = useSeededForecast({
  clear: [FORECAST, FORECAST_HISTORY, FORECAST_ROLLUPS, FORECAST_VERSIONS, FORECAST_VERSION_ROWS],
});
let db: Db;
const CC = CENTRES[0].cc;
const EDIT = monthKey(calendar.editMonth);

beforeEach(() => {
  db = seeded.db;
});

async function grid(query = "") {
  const request = new Request(`http://localhost${reviewPath(RF, CC)}${query}`);
  const answer = await loader({ request, params: { rf: RF, cost_center_concat: CC }, context: {} as never });
  return dataAnswer<Extract<BodyOf<typeof loader>, { found: true }>>(answer).body.grid;
}

describe("vs versão in the review grid", () => {
  it("offers the saved versions and shows the differences against the one chosen, at every row", async () => {
    const saved = await saveNamedVersion(new URLSearchParams({ rf: RF, nome: "Base do comitê" }), ADMIN);
    if (!saved.ok) throw new Error("version");
    const id = saved.version._id.toHexString();
    expect((await grid()).versionChoices).toEqual([{ id, name: "Base do comitê" }]);
    expect((await grid()).variance).toBeUndefined();

    // A change after the version: Salaries in the edit month.
    const month = monthStartDate(calendar.editMonth);
    const before = (await db
      .collection(FORECAST)
      .findOne({ rf: RF, cost_center_concat: CC, account_concat: ACCOUNTS[0].account, data_ref: month }))!;
    expect(
      await saveForecastCells(
        RF,
        CC,
        [{ account: ACCOUNTS[0].account, month, old: before.forecast, value: before.forecast + 100 }],
        ADMIN,
        new Date(),
      ),
    ).toMatchObject({ kind: "saved", count: 1 });

    const compared = await grid(`?versao=${id}`);
    const variance = compared.variance!;
    expect(variance.version).toMatchObject({ id, name: "Base do comitê" });
    expect(variance.columns).toEqual([]);
    const at = compared.months.indexOf(EDIT);
    expect(variance.lines[0].version!.months[at]).toEqual({
      abs: 100,
      pct: expect.closeTo((100 / before.forecast) * 100, 1),
    });
    expect(variance.lines[1].version!.months[at]).toEqual({ abs: 0, pct: 0 });
    expect(variance.groups[0].version!.months[at].abs).toBe(100);
    expect(variance.grand.version!.months[at].abs).toBe(100);
    const year = compared.totals.findIndex((t) => t.indexes.includes(at));
    expect(variance.grand.version!.total[year]).toMatchObject({ abs: 100 });

    // Its columns follow the annual totals, and their text is what the grid shows.
    const defs = varianceColumnDefs(variance, compared.months, compared.totals);
    const ids = defs.map((d) => d.id);
    expect(ids).toContain(`vm_abs_${EDIT}`);
    expect(ids).toContain(`vv_prev_${compared.totals[year].year}`);
    const meta = defs.find((d) => d.id === `vm_abs_${EDIT}`)!.meta as VarianceColumnMeta;
    expect(varianceText(variance.lines[0], meta)).toBe("100,00");

    // With the other groups on, both.
    const both = (await grid(`?cols=rf&versao=${id}`)).variance!;
    expect(both.columns).toEqual(["rf"]);
    expect(both.lines[0].rf.length).toBeGreaterThan(0);
    expect(both.lines[0].version!.months[at].abs).toBe(100);
  });

  it("against a version of another window: both totals over the months both hold, and the headers say which", async () => {
    // RF1 2027's grid against a version of RF4 2026, whose window ends in August 2027.
    await insertScenario(db, "RF4 2026", CC);
    await noteDataChanged([FORECAST], db);
    const saved = await saveNamedVersion(new URLSearchParams({ rf: "RF4 2026", nome: "RF4 fechado" }), ADMIN);
    if (!saved.ok) throw new Error("version");
    const request = new Request(`http://localhost${reviewPath(PREVIOUS_RF, CC)}?versao=${saved.version._id}`);
    const answer = await loader({ request, params: { rf: PREVIOUS_RF, cost_center_concat: CC }, context: {} as never });
    const compared = dataAnswer<Extract<BodyOf<typeof loader>, { found: true }>>(answer).body.grid;
    const variance = compared.variance!;
    const year = compared.totals.findIndex((t) => t.year === 2027);
    const months = variance.version!.totalMonths![year];
    expect(months).toMatchObject({ compared: 8, of: 12 });
    expect(months.indexes.map((i) => compared.months[i])).toEqual(
      ["01", "02", "03", "04", "05", "06", "07", "08"].map((m) => `2027-${m}`),
    );
    // Jan–Aug 2027: RF1 2027's window positions 14–21, RF4 2026's 17–24 (base + position), three accounts.
    const bases = ACCOUNTS.reduce((sum, a) => sum + a.base, 0);
    expect(variance.grand.version!.total[year]).toEqual({
      current: 8 * bases + 3 * 140,
      previous: 8 * bases + 3 * 164,
      abs: -72,
      pct: expect.any(Number),
    });
    const headers = varianceColumnDefs(variance, compared.months, compared.totals).map((d) => d.header);
    expect(headers).toEqual(
      expect.arrayContaining([
        "Total 2027 (jan–ago/27, 8 de 12 meses)",
        "Total 2027 RF4 fechado (jan–ago/27, 8 de 12 meses)",
        "Δ versão 2027 (jan–ago/27)",
      ]),
    );
    // A month the version does not hold has no difference.
    expect(variance.grand.version!.months[compared.months.indexOf("2027-09")]).toEqual({ abs: null, pct: null });
  });

  it("leaves the grid as it was for an unknown or malformed version", async () => {
    expect((await grid("?versao=0123456789abcdef01234567")).variance).toBeUndefined();
    expect((await grid("?versao=%24where")).variance).toBeUndefined();
  });
});
