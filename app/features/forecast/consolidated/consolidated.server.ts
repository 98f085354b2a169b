import { getDb } from "~/db.server";
import { costCentersOfScenario, listScenarioNames } from "~/models/forecast.server";
import { recordsState } from "~/models/forecast-consolidated.server";
import type { ShownCode } from "~/models/forecast-cycle.fields";
import { cyclesOf } from "~/models/forecast-cycle.server";
import { forecastScopeOf } from "~/models/forecast-readers.server";
import { listVersions } from "~/models/forecast-versions.server";
import { type CalendarDate, type Month, monthKey, monthLabel, monthOf } from "~/shared/months";
import type { PermissionType } from "~/shared/permissions";
import { promiseCache } from "~/shared/promise-cache.server";
import { shownState } from "../cycle/rules";
import { sortScenarios } from "../forecast-filter";
import { editWindowOf, parseScenario, scenarioCalendar, scenarioOpenOn } from "../release-points";
import { previousScenario } from "../variance";
import { versionRestriction } from "../versions/restriction.server";
import { type ActualNote, actualNoteOf, actualYearOptions, commonMonths } from "./comparison";
import { cycleSummary, type SummaryRow } from "./cycle-summary";
import type { CentreInfo, FigureSet } from "./figures";
import type { ConsolidatedQuery, FigureSource } from "./query";
import { type ResolvedSource, resolveSources, type SourceContext, versionExists } from "./sources.server";
import { consolidatedTexts as t } from "./texts";
import { buildTree, type TreeRow } from "./tree";

/**
 * The consolidated forecast on the server: the query read with zod, the viewer's scope, the figures shown and
 * compared, the tree and the cycle's summary. The screen (/ij/forecast_consolidado) and its export build the same
 * model here; the screen sends only the open rows.
 */

/** The query string as zod reads it (query.server.ts). */
export { parseConsolidatedQuery } from "./query.server";

export type MonthColumn = { key: string; label: string; forecast: boolean };
export type SourceOption = { token: string; label: string };

export type ConsolidatedModel = {
  scenarios: string[];
  rf: string | null;
  year: number;
  months: MonthColumn[];
  query: ConsolidatedQuery;
  options: SourceOption[];
  baseLabel: string;
  compareLabel: string | null;
  /** The viewer's cost centres (null: every one). */
  scope: string[] | null;
  rows: TreeRow[];
  summary: SummaryRow[];
  notices: string[];
  /** A version of some cost centres only narrows the view to them: what the screen and the export say (else null). */
  restricted: string | null;
  /** The shown figures' short name, the compared figures' year, the month positions both sides cover (comparison.ts). */
  baseShort?: string;
  compareYear?: number;
  common?: number[];
  /** "Vs Realizado" of a year without actuals: why every difference is "—", and the last year with actuals. */
  actualNote?: ActualNote | null;
};

type Resolved = Extract<ResolvedSource, { ok: true }>;

const yearMonths = (year: number): Month[] => Array.from({ length: 12 }, (_, i) => monthOf(year, i + 1));

function labelOf(source: FigureSource, ctx: SourceContext, resolved: ResolvedSource, short = false): string {
  const names = short ? t.shortSource : t.sources;
  switch (source.kind) {
    case "rf":
      return names.rf(ctx.calendar.name);
    case "previous":
      return names.previous(ctx.previous.name);
    case "actual":
      return source.year && !short ? t.sources.actualOf(source.year) : names.actual;
    case "version":
      return resolved.ok && resolved.version ? names.version(resolved.version.name) : source.id;
  }
}

/** The amount of one cost centre in a set (its year). */
const centreAmount = (set: FigureSet, cc: string) =>
  [...(set.lines.get(cc)?.values() ?? [])].reduce((s, l) => s + l.amounts.reduce<number>((x, a) => x + (a ?? 0), 0), 0);

/** The RF asked for, else the one open today, else the latest. */
async function chooseRf(
  asked: string | null,
  today: CalendarDate,
): Promise<{ scenarios: string[]; rf: string | null }> {
  const scenarios = sortScenarios(await listScenarioNames());
  const open = scenarioOpenOn(today)?.name;
  const rf =
    asked && scenarios.includes(asked) ? asked : open && scenarios.includes(open) ? open : (scenarios[0] ?? null);
  return { scenarios, rf };
}

async function versionOptions(ctx: SourceContext, chosen: readonly Resolved[]): Promise<SourceOption[]> {
  const { rows } = await listVersions([ctx.calendar.name, ctx.previous.name], 0, 50, ctx.scope);
  const versions = new Map(rows.map((v) => [v._id.toHexString(), v]));
  for (const r of chosen) if (r.version) versions.set(r.version._id.toHexString(), r.version);
  return [
    { token: "rf", label: t.sources.rf(ctx.calendar.name) },
    { token: "anterior", label: t.sources.previous(ctx.previous.name) },
    { token: "realizado", label: t.sources.actual },
    ...[...versions.values()].map((v) => ({ token: `v:${v._id.toHexString()}`, label: t.sources.version(v.name) })),
  ];
}

type Cycles = Awaited<ReturnType<typeof cyclesOf>>;
type EditWindow = ReturnType<typeof editWindowOf>;

/** The cost centres of the view with their level and state (before the approved-only filter). */
async function centresOf(
  ctx: SourceContext,
  sets: readonly FigureSet[],
  cycles: Cycles,
  window: EditWindow,
): Promise<(CentreInfo & { state: ShownCode })[]> {
  const allowed = ctx.scope ? new Set(ctx.scope) : null;
  const centres = new Map<string, CentreInfo>();
  for (const { cost_center_concat, level } of await costCentersOfScenario(ctx.calendar.name))
    if (!allowed || allowed.has(cost_center_concat))
      centres.set(cost_center_concat, { cost_center_concat, cost_center: "", level });
  for (const set of sets)
    for (const [cc, info] of set.centres) if (!centres.has(cc) && (!allowed || allowed.has(cc))) centres.set(cc, info);
  return [...centres.values()].map((c) => ({
    ...c,
    state: shownState(cycles.get(c.cost_center_concat)?.state ?? "preparing", window).code,
  }));
}

/** The figures of a view: its sources resolved, the tree and the cycle's summary. */
type Figures = {
  base: ResolvedSource;
  compared: ResolvedSource | undefined;
  shown: Resolved;
  other: Resolved | null;
  rows: TreeRow[];
  summary: SummaryRow[];
  /** The month positions both sides cover: the compared totals sum these. */
  common: number[];
};

async function computeFigures(
  ctx: SourceContext,
  query: ConsolidatedQuery,
  sources: FigureSource[],
  cycles: Cycles,
  window: EditWindow,
  companyLabel: string,
): Promise<Figures> {
  const [base, compared] = await resolveSources(sources, ctx);
  const shown: Resolved = base.ok
    ? base
    : {
        ok: true,
        set: { months: ctx.months, lines: new Map(), centres: new Map() },
        forecastFrom: null,
        covered: ctx.months.map(() => true),
      };
  const other = compared?.ok ? compared : null;
  const common = commonMonths(shown, other);
  const centres = await centresOf(ctx, other ? [shown.set, other.set] : [shown.set], cycles, window);
  const rows = buildTree({
    monthCount: ctx.months.length,
    centres: query.approvedOnly ? centres.filter((c) => c.state === "approved") : centres,
    shown: shown.set,
    compared: other?.set ?? null,
    common,
    noArea: t.noArea,
    companyLabel,
  });
  const summary = cycleSummary(
    centres.map((c) => ({ level: c.level, state: c.state, amount: centreAmount(shown.set, c.cost_center_concat) })),
  );
  return { base, compared, shown, other, rows, summary, common };
}

/**
 * Figures computed in this process, by what they are computed from, read afresh on every request (small reads): the
 * forecast's data state (the rollups of the live RF, the previous one and the actuals follow it; every write path
 * notes it), the sources, whether each version asked for exists (a version never changes), the scope, the edit
 * window and every cost centre's cycle state, so a decision or a write shows at once. Opening and closing rows and
 * the export read the same figures: fifty people on one RF compute them once. Shared, read-only values.
 */
const figuresOnce = promiseCache<Figures>(16);

/** The whole model of the view (every row of the tree; the screen keeps the open ones). */
export async function buildConsolidated(
  parsed: { query: ConsolidatedQuery; invalid: boolean },
  user: { email: string; type: PermissionType },
  today: CalendarDate,
): Promise<ConsolidatedModel> {
  const { scenarios, rf } = await chooseRf(parsed.query.rf, today);
  const query = { ...parsed.query, rf };
  const notices = parsed.invalid ? [t.invalidQuery] : [];
  const scope = await forecastScopeOf(user);
  const empty = {
    scenarios,
    rf,
    query,
    scope,
    notices,
    restricted: null,
    rows: [],
    summary: [],
    options: [],
    months: [],
  };
  if (!rf) return { ...empty, year: 0, baseLabel: "", compareLabel: null };
  const calendar = scenarioCalendar(parseScenario(rf)!);
  const months = yearMonths(calendar.year);
  // A version of some cost centres only (an approval) narrows both sides to them (versions/restriction.server.ts).
  const restriction = await versionRestriction(query.base, query.compare, scope);
  const viewScope = restriction?.scope ?? scope;
  const previous = scenarioCalendar(previousScenario(calendar));
  const ctx: SourceContext = { calendar, previous, months, scope: viewScope };
  const companyLabel = restriction?.companyLabel ?? (scope ? t.companyScoped : t.company);
  const sources = query.compare ? [query.base, query.compare] : [query.base];
  const db = await getDb();
  const [records, cycles, versionsFound] = await Promise.all([
    recordsState(db),
    cyclesOf(rf, scope ?? undefined),
    Promise.all(sources.map((s) => (s.kind === "version" ? versionExists(s.id, scope) : true))),
  ]);
  const window = editWindowOf(calendar, today);
  const key = JSON.stringify([
    db.databaseName,
    records,
    rf,
    sources,
    versionsFound,
    query.approvedOnly,
    viewScope,
    window,
    [...cycles.values()].map((c) => [c.cost_center_concat, c.state]),
  ]);
  const { base, compared, shown, other, rows, summary, common } = await figuresOnce(key, () =>
    computeFigures(ctx, query, sources, cycles, window, companyLabel),
  );
  if (!base.ok || (query.compare !== null && !compared?.ok)) notices.push(t.versionMissing);
  if (restriction) notices.push(restriction.note);
  return {
    scenarios,
    rf,
    year: calendar.year,
    months: months.map((m) => ({
      key: monthKey(m),
      label: monthLabel(m),
      forecast: shown.forecastFrom !== null && m >= shown.forecastFrom,
    })),
    query: { ...query, compare: other ? query.compare : null },
    options: [...(await versionOptions(ctx, [shown, ...(other ? [other] : [])])), ...actualYearOptions(query)],
    baseLabel: labelOf(query.base, ctx, base),
    compareLabel: query.compare && other ? labelOf(query.compare, ctx, other, true) : null,
    baseShort: labelOf(query.base, ctx, base, true),
    compareYear: query.compare?.kind === "actual" && query.compare.year ? query.compare.year : calendar.year,
    common,
    actualNote: actualNoteOf(query, calendar.year, base.ok ? base : null, other),
    scope,
    rows,
    summary,
    notices,
    restricted: restriction?.note ?? null,
  };
}
