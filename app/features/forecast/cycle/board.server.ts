import { z } from "zod";
import { costCentersOfScenario, listScenarioNames } from "~/models/forecast.server";
import { INITIAL_STATE, SHOWN_CODES, type ShownCode } from "~/models/forecast-cycle.fields";
import { costCentersPreparedBy, cyclesOf, lastReturnsOf, preparersOf } from "~/models/forecast-cycle.server";
import { formatDateTime } from "~/shared/dates";
import { type CalendarDate, monthLabel, monthOfDay, monthStartDate } from "~/shared/months";
import { formatNumber } from "~/shared/numbers";
import { pageNumber } from "~/shared/pagination";
import { sortScenarios } from "../forecast-filter";
import {
  editWindowOf,
  parseScenario,
  type ScenarioCalendar,
  scenarioCalendar,
  scenarioOpenOn,
} from "../release-points";
import { BOARD_PAGE_SIZE, type BoardQuery, decisionValue } from "./board-links";
import { boardTexts } from "./board-texts";
import { shownState } from "./rules";
import { shownLabel } from "./texts";

/**
 * The status board of one RF (reviewers and administrators): each cost centre with its state, preparers, last change
 * and the days left in the edit month; counts and % per state; filters by state and level (area). The RF's cost
 * centres are few (hundreds at most), so the board is built whole and a page of it sent; the query string holds
 * the RF, the filters and the page.
 */

export type BoardRow = {
  cost_center_concat: string;
  level: string;
  state: ShownCode;
  stateLabel: string;
  preparers: string;
  lastChange: string;
  lastChangeBy: string;
  /** Days from today to the last day of the edit month (null once it has ended). */
  daysLeft: number | null;
  href: string;
  /** A submitted row's box value for a decision from the board (bulk-decision.server.ts); null otherwise. */
  decision: string | null;
};

const querySchema = z.object({
  rf: z.string().max(20).nullable().catch(null),
  estado: z.enum(SHOWN_CODES).nullable().catch(null),
  nivel: z.string().max(200).nullable().catch(null),
  page: pageNumber,
});

export function parseBoardQuery(params: URLSearchParams): BoardQuery {
  const parsed = querySchema.parse({
    rf: params.get("rf") || null,
    estado: params.get("estado") || null,
    nivel: params.get("nivel") || null,
    page: params.get("page") ?? undefined,
  });
  return { rf: parsed.rf, state: parsed.estado, level: parsed.nivel, page: parsed.page };
}

/** Days from `today` to the last day of the calendar's edit month (0 on that day); null once it has passed. */
export function daysToEditEnd(calendar: ScenarioCalendar, today: CalendarDate): number | null {
  const end = monthStartDate(calendar.editMonth + 1).getTime() - 86_400_000;
  const now = Date.UTC(today.year, today.month - 1, today.day);
  if (monthOfDay(today) > calendar.editMonth) return null;
  return Math.round((end - now) / 86_400_000);
}

export type Board = {
  scenarios: string[];
  rf: string | null;
  editMonth: string;
  levels: string[];
  counts: { code: ShownCode; label: string; count: number; percent: string }[];
  total: number;
  rows: BoardRow[];
  /** Rows after the filters (before paging). */
  filtered: number;
  page: number;
};

/** The RF a board shows: the one asked for if it exists, else the one open today, else the latest. */
function shownRf(scenarios: readonly string[], asked: string | null, today: CalendarDate): string | null {
  const open = scenarioOpenOn(today)?.name;
  if (asked && scenarios.includes(asked)) return asked;
  if (open && scenarios.includes(open)) return open;
  return scenarios[scenarios.length - 1] ?? null;
}

/**
 * A preparer's own cost centre ("Meus centros de custo"): its state in the RF shown, the days left and its review; when
 * it is Devolvido, the reason of its last return (the reviewer's comment, who, when).
 */
export type MyCostCentre = Pick<BoardRow, "cost_center_concat" | "state" | "stateLabel" | "daysLeft" | "href"> & {
  returned: { comment: string; by: string; at: string } | null;
};

/**
 * "Meus centros de custo": the cost centres `email` prepares (`prepared`, every RF, to mark them in the picker) and,
 * for those in the RF a board would show today, their state, days left, review and, returned ones, why (`mine`; null
 * when there are none).
 */
export async function myCostCentres(
  email: string,
  today: CalendarDate,
  reviewHref: (rf: string, cc: string) => string,
): Promise<{ prepared: string[]; mine: { rf: string; rows: MyCostCentre[] } | null }> {
  const prepared = (await costCentersPreparedBy(email)).sort((a, b) => a.localeCompare(b, "pt-BR", { numeric: true }));
  if (prepared.length === 0) return { prepared, mine: null };
  const rf = shownRf(sortScenarios(await listScenarioNames()), null, today);
  if (!rf) return { prepared, mine: null };
  const calendar = scenarioCalendar(parseScenario(rf)!);
  const window = editWindowOf(calendar, today);
  const [centres, cycles] = await Promise.all([costCentersOfScenario(rf), cyclesOf(rf, prepared)]);
  const inRf = new Set(centres.map((c) => c.cost_center_concat));
  const daysLeft = daysToEditEnd(calendar, today);
  const mine = prepared.filter((cc) => inRf.has(cc));
  // Only a cost centre whose record is Devolvido has a return to explain (after the edit month shown as Não enviado).
  const returns = await lastReturnsOf(
    rf,
    mine.filter((cc) => cycles.get(cc)?.state === "returned"),
  );
  const rows = mine.map((cc): MyCostCentre => {
    const shown = shownState(cycles.get(cc)?.state ?? INITIAL_STATE, window);
    const last = returns.get(cc);
    return {
      cost_center_concat: cc,
      state: shown.code,
      stateLabel: shown.label,
      daysLeft,
      href: reviewHref(rf, cc),
      returned: last ? { comment: last.comment, by: last.name || last.by, at: formatDateTime(last.at) } : null,
    };
  });
  return { prepared, mine: rows.length > 0 ? { rf, rows } : null };
}

const percentOf = (n: number, total: number) => (total === 0 ? "—" : `${formatNumber((n / total) * 100, 1, 0)}%`);

/** A read started ahead that may end up unused: its failure is not an unhandled rejection, and awaiting it still throws. */
function handled<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}

/** The whole board of an RF, filtered (all rows; the page slices). */
export async function buildBoard(
  query: BoardQuery,
  today: CalendarDate,
  reviewHref: (rf: string, cc: string) => string,
): Promise<Omit<Board, "rows" | "page"> & { all: BoardRow[] }> {
  // The preparers, and the cycle records of the RF the board will most likely show (the one asked for, else the one
  // open today), are read with the scenarios' state, in one command; another RF's records are read after.
  const likely = query.rf ?? scenarioOpenOn(today)?.name ?? null;
  const preparersRead = handled(preparersOf());
  const likelyCycles = likely ? handled(cyclesOf(likely)) : null;
  const scenarios = sortScenarios(await listScenarioNames());
  const rf = shownRf(scenarios, query.rf, today);
  if (!rf) return { scenarios, rf: null, editMonth: "", levels: [], counts: [], total: 0, filtered: 0, all: [] };
  const calendar = scenarioCalendar(parseScenario(rf)!);
  const window = editWindowOf(calendar, today);
  const days = daysToEditEnd(calendar, today);
  const [centres, cycles, preparers] = await Promise.all([
    costCentersOfScenario(rf),
    rf === likely && likelyCycles ? likelyCycles : cyclesOf(rf),
    preparersRead,
  ]);
  const rows: BoardRow[] = centres.map(({ cost_center_concat, level }) => {
    const record = cycles.get(cost_center_concat);
    const shown = shownState(record?.state ?? INITIAL_STATE, window);
    return {
      cost_center_concat,
      level,
      state: shown.code,
      stateLabel: shown.label,
      preparers: (preparers.get(cost_center_concat) ?? []).join(", "),
      lastChange: record?.changed_by ? formatDateTime(record.changed_at) : "",
      lastChangeBy: record?.changed_by_name || record?.changed_by || "",
      daysLeft: days,
      href: reviewHref(rf, cost_center_concat),
      decision:
        shown.code === "submitted" && record?.submitted_at
          ? decisionValue(record.submitted_at, cost_center_concat)
          : null,
    };
  });
  const counts = SHOWN_CODES.map((code) => {
    const count = rows.filter((r) => r.state === code).length;
    return { code, label: shownLabel(code), count, percent: percentOf(count, rows.length) };
  });
  const levels = [...new Set(rows.map((r) => r.level).filter((l) => l !== ""))].sort((a, b) =>
    a.localeCompare(b, "pt-BR"),
  );
  const all = rows.filter(
    (r) => (!query.state || r.state === query.state) && (!query.level || r.level === query.level),
  );
  return {
    scenarios,
    rf,
    editMonth: monthLabel(calendar.editMonth),
    levels,
    counts,
    total: rows.length,
    filtered: all.length,
    all,
  };
}

export async function loadBoard(
  query: BoardQuery,
  today: CalendarDate,
  reviewHref: (rf: string, cc: string) => string,
): Promise<Board> {
  const { all, ...board } = await buildBoard(query, today, reviewHref);
  const pages = Math.max(1, Math.ceil(all.length / BOARD_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  return { ...board, page, rows: all.slice((page - 1) * BOARD_PAGE_SIZE, page * BOARD_PAGE_SIZE) };
}

/** The filtered board as an XLSX (the reviewers' export). */
export async function boardXlsx(
  query: BoardQuery,
  today: CalendarDate,
  reviewHref: (rf: string, cc: string) => string,
): Promise<Response> {
  const board = await buildBoard(query, today, reviewHref);
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.Workbook();
  const sheet = workbook.addWorksheet(board.rf ?? "Forecast", { views: [{ state: "frozen", ySplit: 1 }] });
  const t = boardTexts;
  sheet.columns = [
    { header: t.costCenter, key: "cc", width: 36 },
    { header: t.level, key: "level", width: 20 },
    { header: t.state, key: "state", width: 16 },
    { header: t.preparers, key: "preparers", width: 36 },
    { header: t.lastChange, key: "last", width: 20 },
    { header: t.lastChangeBy, key: "by", width: 24 },
    { header: t.daysLeft, key: "days", width: 14 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const row of board.all)
    sheet.addRow({
      cc: row.cost_center_concat,
      level: row.level,
      state: row.stateLabel,
      preparers: row.preparers,
      last: row.lastChange,
      by: row.lastChangeBy,
      days: row.daysLeft ?? t.ended,
    });
  const buffer = await workbook.xlsx.writeBuffer();
  const name = `status-forecast-${(board.rf ?? "rf").replace(/\s+/g, "-")}.xlsx`;
  return new Response(new Uint8Array(buffer as ArrayBuffer), {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
