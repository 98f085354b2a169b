import { describe, expect, it } from "vitest";
import { parseScenario, scenarioCalendar, scenarioOpenOn, windowMonths } from "~/features/forecast/release-points";
import type { ForecastRecord } from "~/models/forecast.server";
import { monthOfDate } from "~/shared/months";
import { generateForecast } from "./forecast";
import { DEFAULT_SEED, Random } from "./random";

/** The forecast demo data: which scenarios, which months, actuals where closed and forecasts where open. */

const reference = new Date(Date.UTC(2026, 2, 1));
const records: ForecastRecord[] = [
  ...generateForecast({ random: new Random(DEFAULT_SEED, "test"), scale: 0.01, reference, tenantId: "t", bucket: "b" }),
];
const scenarios = [...new Set(records.map((r) => r.rf))].filter((rf) => rf !== "actual").sort();

describe("the forecast seed", () => {
  it("has RF1–RF4 of the reference year and the year before, and the RF1 of the next year", () => {
    expect(scenarios).toEqual([
      "RF1 2025",
      "RF1 2026",
      "RF1 2027",
      "RF2 2025",
      "RF2 2026",
      "RF3 2025",
      "RF3 2026",
      "RF4 2025",
      "RF4 2026",
    ]);
  });

  it("gives every scenario several cost centres, each account with every month of the window", () => {
    for (const rf of scenarios) {
      const calendar = scenarioCalendar(parseScenario(rf)!);
      const mine = records.filter((r) => r.rf === rf);
      const centres = new Set(mine.map((r) => r.cost_center_concat));
      expect(centres.size, rf).toBeGreaterThanOrEqual(2);
      const byAccount = new Map<string, Set<number>>();
      for (const r of mine)
        byAccount.set(
          `${r.cost_center_concat}|${r.account_concat}`,
          (byAccount.get(`${r.cost_center_concat}|${r.account_concat}`) ?? new Set()).add(monthOfDate(r.data_ref)),
        );
      for (const [account, months] of byAccount)
        expect(
          [...months].sort((a, b) => a - b),
          `${rf} ${account}`,
        ).toEqual(windowMonths(calendar));
    }
  });

  it("fills closed actuals columns with the actual amount and forecast columns with a forecast", () => {
    const referenceMonth = monthOfDate(reference);
    for (const r of records.filter((x) => x.rf !== "actual")) {
      const calendar = scenarioCalendar(parseScenario(r.rf)!);
      const m = monthOfDate(r.data_ref);
      if (m >= calendar.firstForecastMonth) expect(r.forecast, `${r.rf} ${r.account_concat}`).toBeGreaterThan(0);
      else if (m < referenceMonth) {
        expect(r.value).toBeGreaterThan(0);
        expect(r.forecast).toBe(r.value);
      }
    }
  });

  it("has the scenario each edit month of the reference year opens (Feb, May, Aug, Nov), and of the year before", () => {
    for (const year of [2025, 2026]) {
      for (const month of [2, 5, 8, 11])
        expect(scenarios, `${year}-${month}`).toContain(scenarioOpenOn({ year, month, day: 15 })?.name);
    }
  });
});
