import type { ObjectId } from "mongodb";
import {
  parseScenario,
  RELEASE_POINT_NAMES,
  scenarioCalendar,
  scenarioName,
  windowMonths,
} from "~/features/forecast/release-points";
import { ACTUAL_SCENARIO, type ForecastRecord } from "~/models/forecast.server";
import { type ForecastRollup, RollupFolder, storedRollup } from "~/models/forecast-consolidated.server";
import { monthStartDate } from "~/shared/months";
import { roundTo2 } from "~/shared/numbers";
import { monthStart, type SeedContext, scaled } from "./context";
import type { Random } from "./random";
import { ACCOUNT_GROUPS, COST_CENTERS } from "./vocabulary";

const ACTUAL_MONTHS = 14;

export type Scenario = { rf: string; anchor: Date; months: Date[]; firstForecast: Date };

/**
 * RF1–RF4 of the reference year and the year before, and RF1 of the next year (prepared in October of the reference
 * year), so every edit month of the reference year (Feb, May, Aug, Nov) has its scenario. Anchors and windows come
 * from the one release-point table (app/features/forecast/release-points.ts).
 */
export function forecastScenarios(reference: Date): Scenario[] {
  const year = reference.getUTCFullYear();
  const names = [
    ...[year - 1, year].flatMap((y) => RELEASE_POINT_NAMES.map((rp) => scenarioName(rp, y))),
    scenarioName("RF1", year + 1),
  ];
  return names.map((rf) => {
    const calendar = scenarioCalendar(parseScenario(rf)!);
    const { year: y, month, day } = calendar.anchor;
    return {
      rf,
      anchor: new Date(Date.UTC(y, month - 1, day)),
      months: windowMonths(calendar).map(monthStartDate),
      firstForecast: monthStartDate(calendar.firstForecastMonth),
    };
  });
}

/** The latest scenario whose anchor is not after the reference date. */
export function currentScenario(reference: Date): Scenario {
  const started = forecastScenarios(reference).filter((s) => s.anchor.getTime() <= reference.getTime());
  return (
    started.sort((a, b) => a.anchor.getTime() - b.anchor.getTime())[started.length - 1] ??
    forecastScenarios(reference)[0]
  );
}

export function* generateForecast(ctx: SeedContext): Generator<ForecastRecord> {
  const random = ctx.random.fork("forecast");
  const centreCount = Math.min(COST_CENTERS.length, scaled(ctx, 40, 2));
  const scenarios = forecastScenarios(ctx.reference);
  const referenceMonth = monthStart(ctx.reference);
  for (let c = 0; c < centreCount; c++) {
    const [name, level] = COST_CENTERS[c];
    const cost_center = `CC${1001 + c}`;
    const cost_center_concat = `${cost_center} - ${name}`;
    const size = 0.3 + random.next() * 1.7;
    for (const group of random.sample(ACCOUNT_GROUPS, 3)) {
      for (const [code, description, typical] of random.sample(group.accounts, random.int(3, 4))) {
        const base = typical * size * (0.8 + random.next() * 0.4);
        const account = { cost_center_concat, cost_center, level_descr: level, group_level_2: group.group };
        const accountRandom = random.fork(code);
        const actuals = new Map<number, number>();
        const actualOf = (month: Date, r: Random) => {
          const key = month.getTime();
          let v = actuals.get(key);
          if (v === undefined) {
            v = roundTo2(base * (1 + 0.08 * Math.sin(month.getUTCMonth())) * (0.85 + r.next() * 0.3));
            actuals.set(key, v);
          }
          return v;
        };
        const common = { ...account, account_concat: `${code} - ${description}`, acc_description: description };
        for (let m = ACTUAL_MONTHS; m >= 1; m--) {
          const data_ref = monthStart(ctx.reference, -m);
          yield {
            _id: accountRandom.objectId(data_ref),
            rf: ACTUAL_SCENARIO,
            ...common,
            data_ref,
            value: actualOf(data_ref, accountRandom),
            forecast: 0,
          };
        }
        for (const scenario of scenarios) {
          const drift = 0.9 + accountRandom.next() * 0.25;
          for (const data_ref of scenario.months) {
            // Actuals columns (up to the anchor's month) that have already closed carry the actual amount.
            const closed = data_ref < scenario.firstForecast && data_ref < referenceMonth;
            const actual = closed ? actualOf(data_ref, accountRandom) : 0;
            const forecast = closed ? actual : roundTo2(base * drift * (0.95 + accountRandom.next() * 0.1));
            yield {
              _id: accountRandom.objectId(scenario.anchor),
              rf: scenario.rf,
              ...common,
              data_ref,
              value: actual,
              forecast,
            };
          }
        }
      }
    }
  }
}

/**
 * The consolidated view's rollups of the seeded records (one per scenario and cost centre), folded from the records
 * as they are written (`tap`): the seed builds indexes after the data, so reading them back would scan.
 */
export class ForecastRollupCollector {
  private readonly folder = new RollupFolder();

  constructor(private readonly ctx: SeedContext) {}

  tap<T extends ForecastRecord>(records: Iterable<T>): Iterable<T> {
    return this.folder.tap(records);
  }

  documents(): (ForecastRollup & { _id: ObjectId })[] {
    // A stream that draws nothing from the seed's (the records' and the later generators' stay as they were).
    const random = this.ctx.random.derive("forecast_rollups");
    return this.folder.views().map((rollup) => ({
      _id: random.objectId(this.ctx.reference),
      ...storedRollup(rollup, 1, this.ctx.reference),
    }));
  }
}

/**
 * Who prepares each seeded cost centre (the forecast cycle): gold@demo.local every other one, so the demo shows a
 * preparer's view, and an ordinary USER GOLD account the rest. The reviewers are the SYSTEM ADMIN accounts.
 */
export function generateForecastPreparers(
  ctx: SeedContext,
  permissions: readonly { user: string; type: string }[],
): { cost_center_concat: string; user: string; assigned_at: Date; assigned_by: string }[] {
  const random = ctx.random.fork("forecast_preparers");
  const golds = permissions.filter((p) => p.type === "USER GOLD" && p.user !== "gold@demo.local").map((p) => p.user);
  const centreCount = Math.min(COST_CENTERS.length, scaled(ctx, 40, 2));
  const assigned_at = monthStart(ctx.reference, -2);
  return Array.from({ length: centreCount }, (_, c) => {
    const [name] = COST_CENTERS[c];
    const user = c % 2 === 0 || golds.length === 0 ? "gold@demo.local" : random.pick(golds);
    return { cost_center_concat: `CC${1001 + c} - ${name}`, user, assigned_at, assigned_by: "seed" };
  });
}
