import { ObjectId } from "mongodb";
import { ACTUAL_SCENARIO, costCentersOfScenario } from "~/models/forecast.server";
import { type RollupView, readRollups, refreshForecastRollups } from "~/models/forecast-consolidated.server";
import { findVersion, readVersionRows, type VersionHeader } from "~/models/forecast-versions.server";
import type { Month } from "~/shared/months";
import { parseScenario, type ScenarioCalendar, scenarioCalendar } from "../release-points";
import {
  actualFigures,
  type FigureSet,
  filledMonths,
  lastYearWithValues,
  scenarioFigures,
  versionFigures,
} from "./figures";
import type { FigureSource } from "./query";

/**
 * Where the consolidated view's figures come from: the rollups of the live RF, the previous RF and the actuals (one
 * read for all three), or a version's rows; always within the viewer's scope (null: every cost centre).
 */

export type SourceContext = {
  calendar: ScenarioCalendar;
  previous: ScenarioCalendar;
  months: readonly Month[];
  scope: readonly string[] | null;
};

export type ResolvedSource =
  | {
      ok: true;
      set: FigureSet;
      forecastFrom: Month | null;
      version?: VersionHeader;
      /** Per month of the view, whether the source covers it: its RF's window, or (actuals) a month recorded. */
      covered: boolean[];
      /** The actuals: the last year with a value in the viewer's scope (null: none). */
      lastYear?: number | null;
    }
  | { ok: false };

/** The view's months inside a scenario's window. */
const windowCovers = (ctx: SourceContext, rule: { firstMonth: Month; lastMonth: Month }) =>
  ctx.months.map((m) => m >= rule.firstMonth && m <= rule.lastMonth);

const scenariosOf = (source: FigureSource, ctx: SourceContext): string[] =>
  source.kind === "rf"
    ? [ctx.calendar.name, ACTUAL_SCENARIO]
    : source.kind === "previous"
      ? [ctx.previous.name, ACTUAL_SCENARIO]
      : source.kind === "actual"
        ? [ACTUAL_SCENARIO]
        : [];

/**
 * The built rollups of the scenarios, in scope. A pair the forecast holds but that has no rollup yet (records written
 * before rollups existed, or by a path outside the portal such as a test fixture) is built here first.
 */
export async function scopedRollups(rfs: readonly string[], scope: readonly string[] | null): Promise<RollupView[]> {
  const found = await readRollups(rfs, scope);
  const have = new Set(found.map((r) => `${r.rf}\u0000${r.cost_center_concat}`));
  const allowed = scope ? new Set(scope) : null;
  const missing: { rf: string; cost_center_concat: string }[] = [];
  for (const rf of rfs)
    for (const { cost_center_concat } of await costCentersOfScenario(rf))
      if ((!allowed || allowed.has(cost_center_concat)) && !have.has(`${rf}\u0000${cost_center_concat}`))
        missing.push({ rf, cost_center_concat });
  if (missing.length === 0) return found;
  await refreshForecastRollups(missing);
  const rebuilt = await readRollups(
    [...new Set(missing.map((m) => m.rf))],
    [...new Set(missing.map((m) => m.cost_center_concat))],
  );
  return [...found, ...rebuilt.filter((r) => !have.has(`${r.rf}\u0000${r.cost_center_concat}`))];
}

/** Every source asked for, resolved together (the scenarios' rollups in one read). */
export async function resolveSources(sources: readonly FigureSource[], ctx: SourceContext): Promise<ResolvedSource[]> {
  const rfs = [...new Set(sources.flatMap((s) => scenariosOf(s, ctx)))];
  const rollups = await scopedRollups(rfs, ctx.scope);
  const of = (rf: string) => rollups.filter((r) => r.rf === rf);
  return Promise.all(
    sources.map(async (source): Promise<ResolvedSource> => {
      switch (source.kind) {
        case "rf":
          return {
            ok: true,
            set: scenarioFigures(of(ctx.calendar.name), of(ACTUAL_SCENARIO), ctx.calendar, ctx.months),
            forecastFrom: ctx.calendar.firstForecastMonth,
            covered: windowCovers(ctx, ctx.calendar),
          };
        case "previous":
          return {
            ok: true,
            set: scenarioFigures(of(ctx.previous.name), of(ACTUAL_SCENARIO), ctx.previous, ctx.months),
            forecastFrom: ctx.previous.firstForecastMonth,
            covered: windowCovers(ctx, ctx.previous),
          };
        case "actual": {
          // Another year's actuals sit beside the same months of the view's year.
          const shift = source.year === undefined ? 0 : (source.year - ctx.calendar.year) * 12;
          const set = actualFigures(of(ACTUAL_SCENARIO), ctx.months, shift);
          return {
            ok: true,
            set,
            forecastFrom: null,
            covered: filledMonths(set),
            lastYear: lastYearWithValues(of(ACTUAL_SCENARIO)),
          };
        }
        case "version":
          return resolveVersion(source.id, ctx);
      }
    }),
  );
}

/** Whether the version of a source token exists (ready) for a viewer of `scope`: one read by its id. */
export async function versionExists(id: string, scope: readonly string[] | null): Promise<boolean> {
  return ObjectId.isValid(id) && (await findVersion(new ObjectId(id), scope)) !== null;
}

async function resolveVersion(id: string, ctx: SourceContext): Promise<ResolvedSource> {
  const version = ObjectId.isValid(id) ? await findVersion(new ObjectId(id), ctx.scope) : null;
  if (!version) return { ok: false };
  const scenario = parseScenario(version.rf);
  const rows = await readVersionRows(version._id, ctx.scope);
  const calendar = scenario ? scenarioCalendar(scenario) : null;
  const set = versionFigures(rows, ctx.months);
  return {
    ok: true,
    set,
    forecastFrom: calendar?.firstForecastMonth ?? null,
    version,
    // A version holds what its RF showed over its window.
    covered: calendar ? windowCovers(ctx, calendar) : filledMonths(set),
  };
}
