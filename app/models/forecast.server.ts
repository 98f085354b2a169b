import type { AnyBulkWriteOperation, Db, Document, Filter, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { parseScenario } from "~/models/forecast.fields";
import { portalToday } from "~/shared/clock.server";
import { byPtBrNumeric } from "~/shared/collation";
import type { CalendarDate, Month } from "~/shared/months";
import { noteDataChanged } from "./dashboard-cache.server";
import { editWindowOf, scenarioCalendar } from "./forecast-calendar";
import { recordsState, refreshForecastRollups } from "./forecast-consolidated.server";
import { type CycleState, frozenCostCenters, pairKey } from "./forecast-cycle.server";
import type { IndexDeclaration } from "./indexes";
import { aggregateTogether } from "./reads-together.server";
import {
  existingByKey,
  insertIgnoringDuplicates,
  keyText,
  nokIndexes,
  type UploadCounts,
  type UploadMeta,
  uploadedRowId,
} from "./upload-rows.server";

/** Monthly cost-centre actuals and forecasts per release point (spec 001 §3 "Forecast record"). */

export const FORECAST = "forecast";

/** The scenario of actuals; forecasts use an RF name such as "RF1 2026". */
export const ACTUAL_SCENARIO = "actual";

/**
 * One change of a forecast cell made in the portal: the cell (scenario, cost centre, account, month), who, when, the
 * value before and after. A collection of its own rather than an array in the cell: the embedded server applies a
 * `$push` more slowly than the `$set` of the cell (bench/forecast), and the grid's reads stay small.
 */
export const FORECAST_HISTORY = "forecast_history";
/** The rows of uploaded forecast files that broke a rule (import template "forecast"). */
export const FORECAST_NOK = "forecast_nok";

export type ForecastHistoryEntry = {
  rf: string;
  cost_center_concat: string;
  account_concat: string;
  data_ref: Date;
  at: Date;
  by: string;
  name: string;
  old: number;
  new: number;
  /**
   * "excel" when the value came from an edited export ("via Excel"); "upload" when from an upload template; "spread"
   * when "Distribuir total" set it.
   */
  via?: "excel" | "upload" | "spread";
};

export type ForecastRecord = {
  _id?: ObjectId;
  /** "actual" or an RF name such as "RF1 2026". */
  rf: string;
  /** "CC1001 - Marketing". */
  cost_center_concat: string;
  cost_center: string;
  level_descr: string;
  group_level_2: string;
  /** First day of the month, UTC. */
  data_ref: Date;
  /** "4101001 - Salários e Ordenados". */
  account_concat: string;
  acc_description: string;
  /** Actual amount (0 for months without actuals yet). */
  value: number;
  /** Forecast amount (0 in the "actual" scenario). */
  forecast: number;
  /** The last change made in the portal (absent for cells never changed there); the log is in FORECAST_HISTORY. */
  edited_by?: string;
  edited_at?: Date;
};

/**
 * The review reads one scenario × cost centre × month range (equality, equality, range: the first index) and saves
 * cells found the same way; the filter lists scenarios and cost centres with `distinct`, each walking the prefix of
 * an index (rf, then cost_center_concat).
 */
export const indexes: IndexDeclaration[] = [
  {
    collection: FORECAST,
    key: { rf: 1, cost_center_concat: 1, data_ref: 1 },
    options: { name: "rf_costCenter_dataRef" },
  },
  { collection: FORECAST, key: { cost_center_concat: 1, rf: 1 }, options: { name: "costCenter_rf" } },
  // A cell's history, newest first.
  {
    collection: FORECAST_HISTORY,
    key: { rf: 1, cost_center_concat: 1, account_concat: 1, data_ref: 1, at: -1 },
    options: { name: "rf_costCenter_account_dataRef_at" },
  },
  ...nokIndexes(FORECAST_NOK),
];

async function forecast() {
  return (await getDb()).collection<ForecastRecord>(FORECAST);
}

/**
 * Answers derived from the whole collection (its scenarios, an RF's cost centres) kept per data state of the
 * collection (its version, bumped by every write through noteDataChanged, and its count): a `distinct` over an RF's
 * ten thousand cells is costly, a state read cheap. Any instance's write changes the state.
 */
const derived = new Map<string, { state: string; value: Promise<unknown> }>();
const DERIVED_MAX = 64;

async function derivedFromForecast<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const db = await getDb();
  const state = await recordsState(db);
  const cacheKey = `${db.databaseName}\u0000${key}`;
  const cached = derived.get(cacheKey);
  if (cached && cached.state === state) return cached.value as Promise<T>;
  const value = compute();
  if (derived.size >= DERIVED_MAX) derived.delete(derived.keys().next().value!);
  derived.set(cacheKey, { state, value });
  value.catch(() => derived.delete(cacheKey));
  return value;
}

/** The RF scenarios ("RF1 2026" …) present in the collection; the "actual" scenario and malformed names are left out. */
export async function listScenarioNames(): Promise<string[]> {
  return derivedFromForecast("scenarios", async () => {
    const names: unknown[] = await (await forecast()).distinct("rf");
    return names.filter((n): n is string => typeof n === "string" && parseScenario(n) !== null);
  });
}

/** Every cost centre ("CC1001 - Marketing"), by code. */
export async function listCostCenters(): Promise<string[]> {
  const names: unknown[] = await (await forecast()).distinct("cost_center_concat");
  return names.filter((n): n is string => typeof n === "string" && n !== "").sort(byPtBrNumeric);
}

/** How many cost centres each scenario has. */
export async function countCostCenters(scenarios: readonly string[]): Promise<Record<string, number>> {
  const collection = await forecast();
  const counts = await Promise.all(scenarios.map((rf) => collection.distinct("cost_center_concat", { rf })));
  return Object.fromEntries(scenarios.map((rf, i) => [rf, counts[i].length]));
}

/**
 * The cost centres of a scenario with their level (area), by code: the status board's rows. The names come from the
 * `{rf, cost_center_concat}` prefix of the first index (distinct); the level from each one's records of one month.
 */
export async function costCentersOfScenario(rf: string): Promise<{ cost_center_concat: string; level: string }[]> {
  return derivedFromForecast(`costCenters\u0000${rf}`, () => readCostCentersOfScenario(rf));
}

async function readCostCentersOfScenario(rf: string): Promise<{ cost_center_concat: string; level: string }[]> {
  const collection = await forecast();
  const names = ((await collection.distinct("cost_center_concat", { rf })) as unknown[]).filter(
    (n): n is string => typeof n === "string" && n !== "",
  );
  if (names.length === 0) return [];
  const first = await collection.findOne(
    { rf },
    { projection: { _id: 0, data_ref: 1 }, sort: { rf: 1, cost_center_concat: 1, data_ref: 1 } },
  );
  const levels = new Map<string, string>();
  if (first?.data_ref) {
    const rows = await collection
      .find(
        { rf, cost_center_concat: { $in: names }, data_ref: first.data_ref },
        { projection: { _id: 0, cost_center_concat: 1, level_descr: 1 } },
      )
      .toArray();
    for (const row of rows)
      if (!levels.has(row.cost_center_concat)) levels.set(row.cost_center_concat, row.level_descr ?? "");
  }
  const missing = names.filter((n) => !levels.has(n));
  for (const name of missing) {
    const found = await collection.findOne(
      { rf, cost_center_concat: name },
      { projection: { _id: 0, level_descr: 1 } },
    );
    levels.set(name, found?.level_descr ?? "");
  }
  return names
    .sort(byPtBrNumeric)
    .map((cost_center_concat) => ({ cost_center_concat, level: levels.get(cost_center_concat) ?? "" }));
}

/** A cost centre as the review shows it, by the fields the records store. */
export type CostCenterInfo = { cost_center_concat: string; cost_center: string; level_descr: string };

/** The cost centre of a scenario, or null when the scenario has no record of it. */
export async function findCostCenter(rf: string, cost_center_concat: string): Promise<CostCenterInfo | null> {
  // Read together with the page's other reads of the same turn (the review starts its grid's reads beside it).
  const [found] = await aggregateTogether<Partial<CostCenterInfo>>(FORECAST, [
    { $match: { rf, cost_center_concat } },
    { $limit: 1 },
    { $project: { _id: 0, cost_center_concat: 1, cost_center: 1, level_descr: 1 } },
  ]);
  return found
    ? {
        cost_center_concat: found.cost_center_concat ?? cost_center_concat,
        cost_center: found.cost_center ?? "",
        level_descr: found.level_descr ?? "",
      }
    : null;
}

/**
 * One account's cells in a window, months in no promised order: `months[i]` holds `values[i]` (actuals), `forecasts[i]`
 * and whether the portal ever changed it (`edited[i]`, the date of the last change or false).
 */
export type WindowAccount = {
  _id: { account: string; group: string };
  label: string;
  months: Date[];
  values: Array<number | null>;
  forecasts: Array<number | null>;
  edited: Array<Date | false>;
};

/**
 * The records of one scenario and cost centre with `data_ref` in [from, to), an entry per account (and account group).
 * The database groups them (a cell is a document): the account's code, description and group arrive once instead of
 * once per month, so the web process decodes much less than a document per cell would make it. History stays on the
 * server.
 *
 * Actuals where the data keeps them apart (docs/data-contract-001.md, "forecast"): a month whose RF record has no `value`,
 * or that has no RF record, takes the `value` of the `rf = "actual"` record with the same cost centre, account and
 * month. One read for both (groupedWindows).
 */
export async function readWindow(
  rf: string,
  cost_center_concat: string,
  from: Date,
  to: Date,
): Promise<WindowAccount[]> {
  const [scenario, actuals] = await groupedWindows([rf, ACTUAL_SCENARIO], cost_center_concat, from, to);
  return rf === ACTUAL_SCENARIO || actuals.length === 0 ? scenario : withActuals(scenario, actuals);
}

/**
 * The grouped window of each scenario named, in the order named, in one read: one `$match` on the
 * `{rf, cost_center_concat, data_ref}` index (an interval per scenario) grouped by scenario and account.
 */
async function groupedWindows(
  rfs: readonly string[],
  cost_center_concat: string,
  from: Date,
  to: Date,
): Promise<WindowAccount[][]> {
  const named = [...new Set(rfs)];
  // Read together with the page's other reads of the same turn (the review's cycle panel).
  const grouped = await aggregateTogether<WindowAccount & { _id: { rf: string } }>(FORECAST, [
    { $match: { rf: { $in: named }, cost_center_concat, data_ref: { $gte: from, $lt: to } } },
    {
      $group: {
        _id: { rf: "$rf", account: "$account_concat", group: "$group_level_2" },
        label: { $first: "$acc_description" },
        months: { $push: "$data_ref" },
        // A missing amount is pushed as null, so that the arrays stay aligned month by month.
        values: { $push: { $ifNull: ["$value", null] } },
        forecasts: { $push: { $ifNull: ["$forecast", null] } },
        edited: { $push: { $ifNull: ["$edited_at", false] } },
      },
    },
  ]);
  const byRf = new Map<string, WindowAccount[]>(named.map((rf) => [rf, []]));
  for (const { _id, ...entry } of grouped)
    byRf.get(_id.rf)?.push({ ...entry, _id: { account: _id.account, group: _id.group } });
  // A scenario named twice gets its own copy (withActuals changes a scenario's entries in place).
  return rfs.map((rf, i) => (rfs.indexOf(rf) === i ? byRf.get(rf)! : structuredClone(byRf.get(rf)!)));
}

/**
 * The review's window with the variance columns on: the scenario's, the previous RF's and the actuals'
 * records of one cost centre in [from, to), grouped per scenario in one read (groupedWindows). `current` and `previous` take missing
 * amounts from the actuals as readWindow does; `previous` stays empty when that RF has no record there (no previous
 * RF to compare with), and `actuals` are the "actual" scenario's own records.
 */
export async function readWindowWithPrevious(
  rf: string,
  previousRf: string,
  cost_center_concat: string,
  from: Date,
  to: Date,
): Promise<{ current: WindowAccount[]; previous: WindowAccount[]; actuals: WindowAccount[] }> {
  const [current, previous, actuals] = await groupedWindows(
    [rf, previousRf, ACTUAL_SCENARIO],
    cost_center_concat,
    from,
    to,
  );
  // withActuals changes only the scenario's entries: the actuals' stay as read.
  return {
    current: actuals.length === 0 ? current : withActuals(current, actuals),
    previous: actuals.length === 0 || previous.length === 0 ? previous : withActuals(previous, actuals),
    actuals,
  };
}

/** The scenario's cells with each missing amount taken from the actuals (a month without an RF record gains one). */
function withActuals(scenario: WindowAccount[], actuals: readonly WindowAccount[]): WindowAccount[] {
  const byAccount = new Map(scenario.map((entry) => [entry._id.account, entry]));
  for (const actual of actuals) {
    let entry = byAccount.get(actual._id.account);
    if (!entry) {
      entry = { _id: actual._id, label: actual.label, months: [], values: [], forecasts: [], edited: [] };
      byAccount.set(actual._id.account, entry);
      scenario.push(entry);
    }
    const index = new Map(entry.months.map((month, i) => [month.getTime(), i]));
    actual.months.forEach((month, i) => {
      const value = actual.values[i];
      if (value === null) return;
      const at = index.get(month.getTime());
      if (at === undefined) {
        entry.months.push(month);
        entry.values.push(value);
        entry.forecasts.push(null);
        entry.edited.push(false);
      } else if (entry.values[at] === null) {
        entry.values[at] = value;
      }
    });
  }
  return scenario;
}

// ---------------------------------------------------------------------------------------------
// Who may change a cell: the one write rule of the collection

/**
 * Why the records of a scenario and cost centre may not change today: its forecast is submitted or approved
 * (`frozen`), or today is not in the RF's edit month (`closed` after it, whatever the cycle's state; `upcoming`
 * before it).
 */
export type ForecastLock =
  | { kind: "frozen"; state: CycleState }
  | { kind: "closed"; editMonth: Month }
  | { kind: "upcoming"; editMonth: Month };

/**
 * The calendar half of the rule: an RF's records change only in its edit month. Actuals (`rf = "actual"`) are the
 * ledger's closed months, loaded as the books close: no edit month and no cycle state holds them. A name that is
 * neither is not a scenario the portal writes (the upload template refuses it) and is left to that check.
 */
export function windowLockOf(rf: string, today: CalendarDate): ForecastLock | null {
  if (rf === ACTUAL_SCENARIO) return null;
  const scenario = parseScenario(rf);
  if (!scenario) return null;
  const calendar = scenarioCalendar(scenario);
  const window = editWindowOf(calendar, today);
  return window === "open" ? null : { kind: window, editMonth: calendar.editMonth };
}

/**
 * THE rule deciding whether forecast records may change, asked by every write path (the grid's save and so its
 * paste, mass change and undo, the Excel round trip inline and queued, the "forecast" upload template on screen and
 * through `portal import`): of the (rf, cost centre) pairs given, those that may not, as pairKey → why. The cycle's
 * state first (its message names the state), then the edit month.
 */
export async function forecastLocks(
  pairs: readonly { rf: string; cost_center_concat: string }[],
  today: CalendarDate,
  given?: Db,
): Promise<Map<string, ForecastLock>> {
  const scenarios = pairs.filter((p) => p.rf !== ACTUAL_SCENARIO);
  const frozen = await frozenCostCenters(scenarios, given);
  const locks = new Map<string, ForecastLock>();
  for (const { rf, cost_center_concat } of scenarios) {
    const key = pairKey(rf, cost_center_concat);
    if (locks.has(key)) continue;
    const state = frozen.get(key);
    const lock: ForecastLock | null = state ? { kind: "frozen", state } : windowLockOf(rf, today);
    if (lock) locks.set(key, lock);
  }
  return locks;
}

// ---------------------------------------------------------------------------------------------
// Saving cells

/**
 * A validated change: the cell (account × month) of the scenario and cost centre, the value loaded and the new one, and
 * `at`, when the cell was last changed in the portal as loaded (epoch ms, 0: never; absent: not checked).
 */
/** `via`: what made this cell's change, when the save names it per cell (the grid's "Distribuir total"). */
export type CellWrite = { account: string; month: Date; old: number; value: number; at?: number; via?: "spread" };

export type Conflict = { account: string; month: Date; current: number; by: string | null; at: Date | null };

export type SaveResult =
  /** `written`: the cells written, each with the value it had (`old`) and the one written (`value`). */
  | { kind: "saved"; count: number; written: readonly CellWrite[] }
  /** A change names a cell that has no record: `knownAccount` false when the account is not one of the cost centre's. */
  | { kind: "missing"; account: string; month: Date; knownAccount: boolean }
  /** Cells changed by someone else since they were loaded; `saved` cells were written (0 unless a save raced). */
  | { kind: "conflicts"; conflicts: Conflict[]; saved: number; written: readonly CellWrite[] }
  /** The cost centre's forecast may not change today (forecastLocks): nothing written. */
  | ForecastLock;

const cellKey = (account: string, month: Date) => `${month.getTime()}\u0000${account}`;

type StoredCell = Pick<ForecastRecord, "_id" | "account_concat" | "data_ref" | "forecast" | "edited_by" | "edited_at">;

async function readCells(
  rf: string,
  cost_center_concat: string,
  cells: readonly CellWrite[],
): Promise<Map<string, StoredCell>> {
  const times = cells.map((c) => c.month.getTime());
  // The index's range (a cost centre's months), the accounts picked here: a plain filter is the embedded server's fast path.
  const stored = await (await forecast())
    .find(
      { rf, cost_center_concat, data_ref: { $gte: new Date(Math.min(...times)), $lte: new Date(Math.max(...times)) } },
      { projection: { _id: 1, account_concat: 1, data_ref: 1, forecast: 1, edited_by: 1, edited_at: 1 } },
    )
    .toArray();
  return new Map(stored.map((s) => [cellKey(s.account_concat, s.data_ref), s]));
}

/** Whether the stored cell is no longer the one the change was made on: another value, or changed since (`at`). */
const changedSince = (cell: CellWrite, stored: StoredCell) =>
  stored.forecast !== cell.old || (cell.at !== undefined && (stored.edited_at?.getTime() ?? 0) !== cell.at);

/** The write's condition: the cell as the change found it (a missing edited_at matches null). */
const asLoaded = (cell: CellWrite): Filter<ForecastRecord> =>
  ({
    forecast: cell.old,
    ...(cell.at !== undefined ? { edited_at: cell.at === 0 ? null : new Date(cell.at) } : {}),
  }) as Filter<ForecastRecord>;

const conflictOf = (cell: CellWrite, stored: StoredCell): Conflict => ({
  account: cell.account,
  month: cell.month,
  current: stored.forecast,
  by: stored.edited_by ?? null,
  at: stored.edited_at ?? null,
});

/**
 * Writes the changed forecast cells of one scenario and cost centre in one bulk write, all or nothing as far as the
 * checks go: a cell without a record, or a cell whose stored forecast is no longer the value the user loaded or that
 * was changed in the portal since it was loaded (`at`: a save sent again after it succeeded, even once the value is
 * back to what it found), refuses the whole save before anything is written. Each write is itself conditional on
 * the loaded state, so a save that races another between the check and the write loses only the raced cells, which
 * come back as conflicts. A written cell records who and when on itself (in the same write), and its old and new
 * value in FORECAST_HISTORY right after. The caller validates the cells (editable months, two decimals, no duplicates).
 */
export async function saveForecastCells(
  rf: string,
  cost_center_concat: string,
  cells: readonly CellWrite[],
  author: { email: string; name: string },
  now: Date,
  /** What made the change, kept in each cell's history: an Excel round trip, or "Distribuir total". */
  via?: "excel" | "spread",
): Promise<SaveResult> {
  if (cells.length === 0) return { kind: "saved", count: 0, written: [] };
  const lock = (await forecastLocks([{ rf, cost_center_concat }], portalToday(now))).get(
    pairKey(rf, cost_center_concat),
  );
  if (lock) return lock;
  const collection = await forecast();
  const stored = await readCells(rf, cost_center_concat, cells);
  const conflicts: Conflict[] = [];
  const targets: StoredCell[] = [];
  for (const cell of cells) {
    const found = stored.get(cellKey(cell.account, cell.month));
    if (!found) {
      const knownAccount =
        (await collection.countDocuments({ rf, cost_center_concat, account_concat: cell.account }, { limit: 1 })) > 0;
      return { kind: "missing", account: cell.account, month: cell.month, knownAccount };
    }
    if (changedSince(cell, found)) conflicts.push(conflictOf(cell, found));
    targets.push(found);
  }
  if (conflicts.length > 0) return { kind: "conflicts", conflicts, saved: 0, written: [] };

  const result = await collection.bulkWrite(
    cells.map((cell, i) => ({
      updateOne: {
        filter: { _id: targets[i]._id, ...asLoaded(cell) },
        update: { $set: { forecast: cell.value, edited_by: author.email, edited_at: now } },
      },
    })),
    { ordered: false },
  );
  let written = cells;
  let raced: Conflict[] = [];
  if (result.matchedCount !== cells.length) {
    // Someone saved some of these cells between the check and the write: those were not overwritten.
    const after = await readCells(rf, cost_center_concat, cells);
    const mine = (cell: CellWrite) => {
      const current = after.get(cellKey(cell.account, cell.month));
      return (
        current?.edited_at?.getTime() === now.getTime() &&
        current.edited_by === author.email &&
        current.forecast === cell.value
      );
    };
    written = cells.filter(mine);
    raced = cells
      .filter((cell) => !mine(cell))
      .flatMap((cell) => {
        const current = after.get(cellKey(cell.account, cell.month));
        return current ? [conflictOf(cell, current)] : [];
      });
  }
  if (written.length > 0) {
    // The consolidated view's rollup of this cost centre, rebuilt from its records before the save returns.
    await refreshForecastRollups([{ rf, cost_center_concat }]);
    await noteDataChanged([FORECAST]);
    const entries = written.map((cell) => ({
      rf,
      cost_center_concat,
      account_concat: cell.account,
      data_ref: cell.month,
      at: now,
      by: author.email,
      name: author.name,
      old: cell.old,
      new: cell.value,
      ...((cell.via ?? via) ? { via: cell.via ?? via } : {}),
    }));
    await (await getDb()).collection<ForecastHistoryEntry>(FORECAST_HISTORY).insertMany(entries, { ordered: false });
  }
  return raced.length === 0
    ? { kind: "saved", count: written.length, written }
    : { kind: "conflicts", conflicts: raced, saved: written.length, written };
}

/** How many cells of a cost centre in an RF changed after `since` (null: ever): `changedCellsBetween`'s cells. */
export async function countChangedCells(rf: string, cost_center_concat: string, since: Date | null): Promise<number> {
  return (await changedCellsBetween(rf, cost_center_concat, since, null)).length;
}

/** A cell changed in a window of time: its value before the window's first change, its last, and by whom. */
export type ChangedCell = {
  account: string;
  month: Date;
  old: number;
  new: number;
  at: Date;
  by: string;
  name: string;
  count: number;
};

/**
 * The cells of a cost centre in an RF changed after `from` and up to `to` (null: open), each once, by account and
 * month; a cell changed back to its value before the window is not a change. One indexed aggregation over the cost
 * centre's history (at most its accounts × months cells).
 */
export async function changedCellsBetween(
  rf: string,
  cost_center_concat: string,
  from: Date | null,
  to: Date | null,
): Promise<ChangedCell[]> {
  const at = { ...(from ? { $gt: from } : {}), ...(to ? { $lte: to } : {}) };
  return (await getDb())
    .collection<ForecastHistoryEntry>(FORECAST_HISTORY)
    .aggregate<ChangedCell>([
      { $match: { rf, cost_center_concat, ...(from || to ? { at } : {}) } },
      { $sort: { at: 1 } },
      {
        $group: {
          _id: { account: "$account_concat", month: "$data_ref" },
          old: { $first: "$old" },
          new: { $last: "$new" },
          at: { $last: "$at" },
          by: { $last: "$by" },
          name: { $last: "$name" },
          count: { $sum: 1 },
        },
      },
      { $sort: { "_id.account": 1, "_id.month": 1 } },
      {
        $project: {
          _id: 0,
          account: "$_id.account",
          month: "$_id.month",
          old: 1,
          new: 1,
          at: 1,
          by: 1,
          name: 1,
          count: 1,
        },
      },
    ])
    .toArray()
    .then((cells) => cells.filter((cell) => cell.old !== cell.new));
}

/** A cell's history, newest first (at most `limit` entries). */
export async function cellHistory(
  rf: string,
  cost_center_concat: string,
  account: string,
  month: Date,
  limit = 200,
): Promise<ForecastHistoryEntry[]> {
  return (await getDb())
    .collection<ForecastHistoryEntry>(FORECAST_HISTORY)
    .find({ rf, cost_center_concat, account_concat: account, data_ref: month }, { projection: { _id: 0 } })
    .sort({ at: -1 })
    .limit(limit)
    .toArray();
}

/** Whether the scenario and cost centre have a record of the account in that month. */
export async function cellExists(
  rf: string,
  cost_center_concat: string,
  account: string,
  month: Date,
): Promise<boolean> {
  return (
    (await (
      await forecast()
    ).countDocuments({ rf, cost_center_concat, data_ref: month, account_concat: account }, { limit: 1 })) > 0
  );
}

// ---------------------------------------------------------------------------------------------
// Upload template "forecast" (/captura/manual)

export const FORECAST_UPLOAD_KEY = ["rf", "cost_center_concat", "account_concat", "data_ref"] as const;
export const FORECAST_UPLOAD_FIELDS = [
  "cost_center",
  "level_descr",
  "group_level_2",
  "acc_description",
  "value",
  "forecast",
] as const;
export type ForecastUploadRow = Pick<
  ForecastRecord,
  (typeof FORECAST_UPLOAD_KEY)[number] | (typeof FORECAST_UPLOAD_FIELDS)[number]
>;

/**
 * Upserts uploaded records by (rf, cost_center_concat, account_concat, data_ref). A record whose forecast changes gets
 * a history entry "via upload" (the cell's old and new forecast), as a save in the review would; records the file
 * does not name are kept. Unchanged records are left alone, so applying the same file again changes nothing.
 */
export async function applyForecastUpload(rows: readonly ForecastUploadRow[], meta: UploadMeta): Promise<UploadCounts> {
  const { db, file, user, now } = meta;
  // The import refuses a file naming a locked cost centre before applying anything (datasets/ingest.server.ts); this
  // keeps a file that raced a submission or the end of the edit month from writing into it.
  const locks = await forecastLocks(rows, portalToday(now), db);
  if (locks.size > 0) throw new LockedForecastError([...locks.keys()].map((k) => k.replace("\u0000", " · ")));
  const collection = db.collection<ForecastRecord>(FORECAST);
  const projection = Object.fromEntries(
    [...FORECAST_UPLOAD_KEY, ...FORECAST_UPLOAD_FIELDS].map((f) => [f, 1 as const]),
  );
  const existing = await existingByKey(collection, FORECAST_UPLOAD_KEY, rows, projection, meta);
  const inserts: Document[] = [];
  const updates: AnyBulkWriteOperation<ForecastRecord>[] = [];
  const history: ForecastHistoryEntry[] = [];
  let unchanged = 0;
  for (const row of rows) {
    const key = keyText(row, FORECAST_UPLOAD_KEY);
    const found = existing.get(key);
    if (!found) {
      inserts.push({ _id: uploadedRowId(file, key), ...row });
      continue;
    }
    const set: Record<string, unknown> = {};
    for (const field of FORECAST_UPLOAD_FIELDS) if (found[field] !== row[field]) set[field] = row[field];
    if (Object.keys(set).length === 0) {
      unchanged++;
      continue;
    }
    updates.push({ updateOne: { filter: { _id: found._id }, update: { $set: set as Partial<ForecastRecord> } } });
    if (found.forecast !== row.forecast) {
      history.push({
        rf: row.rf,
        cost_center_concat: row.cost_center_concat,
        account_concat: row.account_concat,
        data_ref: row.data_ref,
        at: now,
        by: user,
        name: user,
        old: found.forecast,
        new: row.forecast,
        via: "upload",
      });
    }
  }
  const inserted = await insertIgnoringDuplicates(db.collection(FORECAST), inserts);
  if (updates.length > 0) await collection.bulkWrite(updates, { ordered: false });
  if (history.length > 0)
    await db.collection<ForecastHistoryEntry>(FORECAST_HISTORY).insertMany(history, { ordered: false });
  if (inserted > 0 || updates.length > 0) {
    // The consolidated view's rollups of the pairs this batch names, rebuilt from their records before it returns.
    await refreshForecastRollups(rows, db, now);
    await noteDataChanged([FORECAST], db);
  }
  return { inserted, updated: updates.length, unchanged, removed: 0 };
}

/** An upload's rows name (rf, cost centre) pairs that may not change today (forecastLocks). */
export class LockedForecastError extends Error {
  constructor(readonly pairs: readonly string[]) {
    super(`forecast locked for ${pairs.join("; ")}`);
    this.name = "LockedForecastError";
  }
}
