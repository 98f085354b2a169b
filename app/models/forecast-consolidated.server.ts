import type { Binary, Db } from "mongodb";
import { getDb } from "~/db.server";
import { type Month, monthOfDate, monthStartDate } from "~/shared/months";
import { promiseCache } from "~/shared/promise-cache.server";
import { memoInRequest } from "~/shared/request-scope.server";
import { dataStates } from "./dashboard-cache.server";
import type { IndexDeclaration } from "./indexes";
import { packAmounts, unpackAmounts } from "./packed-amounts";

/**
 * The forecast's rollups: one document per scenario × cost centre holding each account's months as two arrays (the
 * records' `value` and `forecast`), so the consolidated view reads a few hundred small documents instead of summing
 * every record of three scenarios per request. A rollup is never adjusted by a difference: each write path of the
 * forecast (saveForecastCells, applyForecastUpload in forecast.server.ts) rebuilds the rollups of the pairs it
 * touched from their records, in the same call, so a rollup equals a fresh read of its records once the write
 * returns. Concurrent rebuilds of one pair are ordered by a ticket taken after the write: only a rebuild holding a
 * newer ticket than the one applied lands, and the newest ticket read after every write that preceded it.
 */

export const FORECAST_ROLLUPS = "forecast_rollups";
/** The records' collection (forecast.server.ts FORECAST), named here so that this module does not import that one. */
const FORECAST_RECORDS = "forecast";

export type RollupAccount = {
  /** account_concat. */
  account: string;
  label: string;
  /** group_level_2. */
  group: string;
  /** Per month from the rollup's `first_month`: the records' `value` (null: no record, or none stored). */
  values: (number | null)[];
  forecasts: (number | null)[];
};

export type RollupView = {
  rf: string;
  cost_center_concat: string;
  cost_center: string;
  level_descr: string;
  /** The month of position 0 of every account's arrays. */
  first_month: Date;
  accounts: RollupAccount[];
};

/** As stored: each account's months packed (packed-amounts.ts), and the rebuilds' order. */
export type ForecastRollup = Omit<RollupView, "accounts"> & {
  accounts: (Omit<RollupAccount, "values" | "forecasts"> & { values: Binary; forecasts: Binary })[];
  /** The last ticket taken / applied (see the module's comment); a rollup whose `applied` is 0 was never built. */
  ticket: number;
  applied: number;
  refreshed_at: Date;
};

export const indexes: IndexDeclaration[] = [
  {
    collection: FORECAST_ROLLUPS,
    key: { rf: 1, cost_center_concat: 1 },
    options: { unique: true, name: "rf_costCenter_unique" },
  },
];

/** A rollup as stored, from its arrays. */
export function storedRollup(view: RollupView, ticket: number, now: Date): ForecastRollup {
  return {
    ...view,
    accounts: view.accounts.map((a) => ({ ...a, values: packAmounts(a.values), forecasts: packAmounts(a.forecasts) })),
    ticket,
    applied: ticket,
    refreshed_at: now,
  };
}

function viewOf(stored: ForecastRollup): RollupView {
  const { ticket: _t, applied: _a, refreshed_at: _r, ...view } = stored;
  return {
    ...view,
    accounts: stored.accounts.map((a) => ({
      ...a,
      values: unpackAmounts(a.values),
      forecasts: unpackAmounts(a.forecasts),
    })),
  };
}

async function rollups(given?: Db) {
  return (given ?? (await getDb())).collection<ForecastRollup>(FORECAST_ROLLUPS);
}

/** What a rollup reads of a record. */
export type RollupSource = {
  rf: string;
  cost_center_concat: string;
  cost_center?: string | null;
  level_descr?: string | null;
  group_level_2?: string | null;
  account_concat: string;
  acc_description?: string | null;
  data_ref: Date;
  value?: unknown;
  forecast?: unknown;
};

const amount = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const pairKey = (rf: string, cc: string) => `${rf}\u0000${cc}`;

type Cell = { month: Month; value: number | null; forecast: number | null };
type Building = {
  head: Omit<RollupView, "accounts" | "first_month">;
  first: Month;
  last: Month;
  accounts: Map<string, { account: string; label: string; group: string; cells: Cell[] }>;
};

/**
 * The rollups of any records, in any order (the seed's generator as it is written, one pair's records): per (rf,
 * cost centre), the cost centre's code and level of its first record by month, each account's description and group
 * of its first record, and its cells laid on one month axis. Accounts come out in the order they were first met.
 */
export class RollupFolder {
  private readonly pairs = new Map<string, Building>();

  add(r: RollupSource): void {
    const key = pairKey(r.rf, r.cost_center_concat);
    const month = monthOfDate(r.data_ref);
    let pair = this.pairs.get(key);
    if (!pair) {
      pair = { head: headOf(r), first: month, last: month, accounts: new Map() };
      this.pairs.set(key, pair);
    } else if (month < pair.first) {
      pair.first = month;
      pair.head = headOf(r);
    }
    if (month > pair.last) pair.last = month;
    let account = pair.accounts.get(r.account_concat);
    if (!account) {
      account = { account: r.account_concat, label: r.acc_description ?? "", group: r.group_level_2 ?? "", cells: [] };
      pair.accounts.set(r.account_concat, account);
    }
    account.cells.push({ month, value: amount(r.value), forecast: amount(r.forecast) });
  }

  /** Every record of `records` added as it passes (the seed writes the records and folds them in one pass). */
  *tap<T extends RollupSource>(records: Iterable<T>): Generator<T> {
    for (const record of records) {
      this.add(record);
      yield record;
    }
  }

  views(): RollupView[] {
    return [...this.pairs.values()].map(viewOfBuilding);
  }
}

function viewOfBuilding(pair: Building): RollupView {
  const length = pair.last - pair.first + 1;
  return {
    ...pair.head,
    first_month: monthStartDate(pair.first),
    accounts: [...pair.accounts.values()].map(({ cells, ...account }) => {
      const values = new Array<number | null>(length).fill(null);
      const forecasts = new Array<number | null>(length).fill(null);
      for (const cell of cells) {
        values[cell.month - pair.first] = cell.value;
        forecasts[cell.month - pair.first] = cell.forecast;
      }
      return { ...account, values, forecasts };
    }),
  };
}

export function foldRollups(records: Iterable<RollupSource>): RollupView[] {
  const folder = new RollupFolder();
  for (const record of records) folder.add(record);
  return folder.views();
}

function headOf(r: RollupSource): Building["head"] {
  return {
    rf: r.rf,
    cost_center_concat: r.cost_center_concat,
    cost_center: r.cost_center ?? "",
    level_descr: r.level_descr ?? "",
  };
}

const SOURCE_PROJECTION = {
  _id: 0,
  rf: 1,
  cost_center_concat: 1,
  cost_center: 1,
  level_descr: 1,
  group_level_2: 1,
  account_concat: 1,
  acc_description: 1,
  data_ref: 1,
  value: 1,
  forecast: 1,
} as const;

/** Rebuilds the rollup of one pair from its records (one read on the forecast's `{rf, cost_center_concat}` prefix). */
async function refreshPair(db: Db, rf: string, cost_center_concat: string, now: Date): Promise<void> {
  const collection = await rollups(db);
  const ticket = await takeTicket(db, rf, cost_center_concat);
  const records = await db
    .collection<RollupSource>(FORECAST_RECORDS)
    .find({ rf, cost_center_concat }, { projection: SOURCE_PROJECTION })
    .sort({ rf: 1, cost_center_concat: 1, data_ref: 1 })
    .toArray();
  const [built] = foldRollups(records);
  const body: RollupView = built ?? {
    rf,
    cost_center_concat,
    cost_center: "",
    level_descr: "",
    first_month: new Date(0),
    accounts: [],
  };
  const { ticket: _taken, ...stored } = storedRollup(body, ticket, now);
  await collection.updateOne({ rf, cost_center_concat, applied: { $lt: ticket } }, { $set: stored });
}

/** The next ticket of a pair (creating its rollup, not yet built, on the first). */
async function takeTicket(db: Db, rf: string, cost_center_concat: string): Promise<number> {
  const collection = await rollups(db);
  for (let attempt = 0; ; attempt++) {
    try {
      const after = await collection.findOneAndUpdate(
        { rf, cost_center_concat },
        { $inc: { ticket: 1 }, $setOnInsert: { applied: 0 } },
        { upsert: true, returnDocument: "after", projection: { _id: 0, ticket: 1 } },
      );
      return after?.ticket ?? 1;
    } catch (error) {
      // Two first tickets of one pair at once: the other insert won; take the next ticket on it.
      if ((error as { code?: number }).code !== 11000 || attempt > 0) throw error;
    }
  }
}

/** How many pairs are rebuilt at once (an upload's batch names a few; a rebuild, every pair). */
const REFRESH_IN_FLIGHT = 4;

/**
 * Rebuilds the rollups of the (rf, cost centre) pairs given, after their records changed: called by every write path
 * of the forecast before it returns.
 */
export async function refreshForecastRollups(
  pairs: Iterable<{ rf: string; cost_center_concat: string }>,
  given?: Db,
  now: Date = new Date(),
): Promise<void> {
  const db = given ?? (await getDb());
  const unique = new Map<string, { rf: string; cost_center_concat: string }>();
  for (const { rf, cost_center_concat } of pairs)
    unique.set(pairKey(rf, cost_center_concat), { rf, cost_center_concat });
  const queue = [...unique.values()];
  readCache.clear();
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      await refreshPair(db, next.rf, next.cost_center_concat, now);
  };
  await Promise.all(Array.from({ length: Math.min(REFRESH_IN_FLIGHT, queue.length) }, worker));
  // Also after: a read that raced the rebuild may have kept the rollups as they were under an unchanged state.
  readCache.clear();
}

/** Every pair of the forecast rebuilt (a repair: the write paths keep them current). */
export async function rebuildForecastRollups(given?: Db): Promise<number> {
  const db = given ?? (await getDb());
  const records = db.collection(FORECAST_RECORDS);
  const pairs: { rf: string; cost_center_concat: string }[] = [];
  for (const rf of (await records.distinct("rf")) as unknown[]) {
    if (typeof rf !== "string") continue;
    for (const cc of (await records.distinct("cost_center_concat", { rf })) as unknown[])
      if (typeof cc === "string") pairs.push({ rf, cost_center_concat: cc });
  }
  await refreshForecastRollups(pairs, db);
  return pairs.length;
}

/**
 * Reads kept per state of the forecast collection (its data version, bumped by every write path after it rebuilt
 * its rollups, and its count): fifty people opening the same view read the rollups once. A rebuild in this process
 * empties it (a pair built by the view itself does not change the state). Shared, read-only values.
 */
const readCache = promiseCache<RollupView[]>(16);

/** The collection's state, read once per request (forecast.server.ts's derived answers read it too). */
export async function recordsState(db: Db): Promise<string> {
  return memoInRequest(`forecast-state:${db.databaseName}`, () =>
    dataStates([FORECAST_RECORDS], db).then((s) => s.get(FORECAST_RECORDS)!),
  );
}

/**
 * The built rollups of the scenarios given (an RF, the previous one, "actual"), of every cost centre or of those
 * listed: one read on the `{rf, cost_center_concat}` index, or none while the forecast has not changed.
 */
export async function readRollups(
  rfs: readonly string[],
  costCenters: readonly string[] | null,
): Promise<RollupView[]> {
  if (rfs.length === 0 || (costCenters && costCenters.length === 0)) return [];
  const db = await getDb();
  const key = JSON.stringify([db.databaseName, await recordsState(db), [...rfs].sort(), costCenters]);
  return readCache(key, () => readStored(db, rfs, costCenters));
}

async function readStored(db: Db, rfs: readonly string[], costCenters: readonly string[] | null) {
  const filter = {
    rf: { $in: [...rfs] },
    ...(costCenters ? { cost_center_concat: { $in: [...costCenters] } } : {}),
    applied: { $gt: 0 },
  };
  const found = await (await rollups(db))
    .find(filter, { projection: { _id: 0, ticket: 0, applied: 0, refreshed_at: 0 } })
    .toArray();
  return found.map(viewOf);
}
