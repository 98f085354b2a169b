import type { Db } from "mongodb";
import { getDb } from "~/db.server";
import { type CycleAction, type CycleState, FROZEN_STATES, INITIAL_STATE } from "./forecast-cycle.fields";
import type { IndexDeclaration } from "./indexes";
import { aggregateTogether } from "./reads-together.server";

/**
 * The forecast cycle: the state of each cost centre × RF (preparing → submitted → approved, or returned to be
 * corrected), every transition kept (who, when, from, to, comment), and who prepares each cost centre. The rules of
 * who may move a state live in app/features/forecast/cycle/; this module keeps the data, with the submission's record
 * (who sent the version under review and who prepared it then: the reviewers' separation of duties holds whatever
 * the preparers' list says later), and which cost centres are in a state whose forecast does not change
 * (`frozenCostCenters`, one half of the forecast collection's write rule `forecastLocks` in forecast.server.ts). The
 * states, actions and transitions are forecast-cycle.fields.ts.
 */

export const FORECAST_CYCLE = "forecast_cycle";
export const FORECAST_CYCLE_EVENTS = "forecast_cycle_events";
export const FORECAST_PREPARERS = "forecast_preparers";
/** The daily reminders sent, one per (RF, day, preparer): `_id` "RF1 2027|2026-11-28|ana@example.com". */
export const FORECAST_REMINDERS = "forecast_reminders";

/** The stored state's type, for the callers that read records (forecast.server.ts). */
export type { CycleState } from "./forecast-cycle.fields";

export type CycleRecord = {
  rf: string;
  cost_center_concat: string;
  state: CycleState;
  changed_at: Date;
  changed_by: string;
  changed_by_name: string;
  /** The last submission (kept until the next one): who sent it, when, and the cost centre's preparers then. */
  submitted_by?: string;
  submitted_at?: Date;
  preparers_at_submission?: string[];
};

/** What a submission records on the cycle's document besides the state. */
export type SubmissionRecord = Required<Pick<CycleRecord, "submitted_by" | "submitted_at" | "preparers_at_submission">>;

export type CycleEvent = {
  rf: string;
  cost_center_concat: string;
  action: CycleAction;
  from: CycleState;
  to: CycleState;
  at: Date;
  by: string;
  name: string;
  comment: string;
};

export type PreparerRecord = {
  cost_center_concat: string;
  /** The preparer's e-mail (users are keyed by e-mail, lower-cased). */
  user: string;
  assigned_at: Date;
  assigned_by: string;
};

export const indexes: IndexDeclaration[] = [
  {
    collection: FORECAST_CYCLE,
    key: { rf: 1, cost_center_concat: 1 },
    options: { unique: true, name: "rf_costCenter_unique" },
  },
  // The status board: one RF's cost centres by state.
  { collection: FORECAST_CYCLE, key: { rf: 1, state: 1 }, options: { name: "rf_state" } },
  // A cost centre's timeline, oldest first.
  {
    collection: FORECAST_CYCLE_EVENTS,
    key: { rf: 1, cost_center_concat: 1, at: 1 },
    options: { name: "rf_costCenter_at" },
  },
  {
    collection: FORECAST_PREPARERS,
    key: { cost_center_concat: 1, user: 1 },
    options: { unique: true, name: "costCenter_user_unique" },
  },
  { collection: FORECAST_PREPARERS, key: { user: 1 }, options: { name: "user" } },
];

async function db(given?: Db): Promise<Db> {
  return given ?? (await getDb());
}

/** The state of one cost centre × RF ("preparing" when nothing was ever recorded). */
export async function cycleOf(rf: string, cost_center_concat: string): Promise<CycleRecord | null> {
  return (await db())
    .collection<CycleRecord>(FORECAST_CYCLE)
    .findOne({ rf, cost_center_concat }, { projection: { _id: 0 } });
}

/** The cycle records of an RF's cost centres (absent ones are "preparing"). */
export async function cyclesOf(rf: string, costCenters?: readonly string[]): Promise<Map<string, CycleRecord>> {
  const filter = costCenters ? { rf, cost_center_concat: { $in: [...costCenters] } } : { rf };
  // Read together with the page's other reads of the same turn (the status board's preparers).
  const rows = await aggregateTogether<CycleRecord>(FORECAST_CYCLE, [{ $match: filter }, { $project: { _id: 0 } }]);
  return new Map(rows.map((r) => [r.cost_center_concat, r]));
}

/**
 * Of the (rf, cost centre) pairs given, those whose forecast is frozen (submitted or approved), as "rf\u0000cc" keys
 * mapped to their state. The one check every write path of the forecast collection makes before writing.
 */
export async function frozenCostCenters(
  pairs: readonly { rf: string; cost_center_concat: string }[],
  given?: Db,
): Promise<Map<string, CycleState>> {
  const frozen = new Map<string, CycleState>();
  if (pairs.length === 0) return frozen;
  const byRf = new Map<string, Set<string>>();
  for (const { rf, cost_center_concat } of pairs) {
    let set = byRf.get(rf);
    if (!set) byRf.set(rf, (set = new Set()));
    set.add(cost_center_concat);
  }
  const collection = (await db(given)).collection<CycleRecord>(FORECAST_CYCLE);
  for (const [rf, set] of byRf) {
    const rows = await collection
      .find(
        { rf, cost_center_concat: { $in: [...set] }, state: { $in: [...FROZEN_STATES] } },
        { projection: { _id: 0, cost_center_concat: 1, state: 1 } },
      )
      .toArray();
    for (const row of rows) frozen.set(pairKey(rf, row.cost_center_concat), row.state);
  }
  return frozen;
}

export const pairKey = (rf: string, cost_center_concat: string) => `${rf}\u0000${cost_center_concat}`;

export type TransitionResult = { ok: true; event: CycleEvent } | { ok: false; current: CycleState };

/**
 * Moves a cost centre × RF from one of `from` to `to`, atomically: a transition raced by another (two reviewers, a
 * submission sent twice) finds the state changed and is refused with the state it found. A submission's record is
 * written in the same update. A decision names the submission it was checked against (`decidedSubmission`, its
 * `submitted_at`, null for a record from before submissions were kept): a return and a resubmission landing between
 * the check and the write make it find another submission, and it is refused the same way. The event is kept after.
 */
export async function transition(
  rf: string,
  cost_center_concat: string,
  action: CycleAction,
  from: readonly CycleState[],
  to: CycleState,
  actor: { email: string; name: string },
  comment: string,
  now: Date,
  submission?: SubmissionRecord,
  decidedSubmission?: Date | null,
): Promise<TransitionResult> {
  const database = await db();
  const cycles = database.collection<CycleRecord>(FORECAST_CYCLE);
  if (from.includes(INITIAL_STATE)) {
    // The default state has no record: create it, so that the conditional update below has one to match.
    try {
      await cycles.updateOne(
        { rf, cost_center_concat },
        {
          $setOnInsert: {
            rf,
            cost_center_concat,
            state: INITIAL_STATE,
            changed_at: now,
            changed_by: "",
            changed_by_name: "",
          },
        },
        { upsert: true },
      );
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
  }
  const before = await cycles.findOneAndUpdate(
    {
      rf,
      cost_center_concat,
      state: { $in: [...from] },
      ...(decidedSubmission === undefined ? {} : { submitted_at: decidedSubmission ?? { $exists: false } }),
    },
    {
      $set: {
        state: to,
        changed_at: now,
        changed_by: actor.email,
        changed_by_name: actor.name,
        ...(submission ? { ...submission, preparers_at_submission: [...submission.preparers_at_submission] } : {}),
      },
    },
    { returnDocument: "before", projection: { _id: 0 } },
  );
  if (!before) {
    const current = await cycles.findOne({ rf, cost_center_concat }, { projection: { state: 1 } });
    return { ok: false, current: current?.state ?? INITIAL_STATE };
  }
  const event: CycleEvent = {
    rf,
    cost_center_concat,
    action,
    from: before.state,
    to,
    at: now,
    by: actor.email,
    name: actor.name,
    comment,
  };
  await database.collection<CycleEvent>(FORECAST_CYCLE_EVENTS).insertOne({ ...event });
  return { ok: true, event };
}

/** Who made the last submission of a cost centre in one RF (index rf_costCenter_at, newest first), or null. */
export async function lastSubmitterOf(rf: string, cost_center_concat: string): Promise<string | null> {
  const last = await (await db())
    .collection<CycleEvent>(FORECAST_CYCLE_EVENTS)
    .findOne({ rf, cost_center_concat, action: "submit" }, { sort: { at: -1 }, projection: { _id: 0, by: 1 } });
  return last?.by ?? null;
}

/** What a return recorded: the reviewer's comment (mandatory), who and when. */
export type ReturnRecord = Pick<CycleEvent, "comment" | "by" | "name" | "at">;

/**
 * The last return of each of an RF's cost centres given (those never returned are absent), from the timeline (index
 * rf_costCenter_at, read backwards: each cost centre's newest event first).
 */
export async function lastReturnsOf(rf: string, costCenters: readonly string[]): Promise<Map<string, ReturnRecord>> {
  const returns = new Map<string, ReturnRecord>();
  if (costCenters.length === 0) return returns;
  const events = await (await db())
    .collection<CycleEvent>(FORECAST_CYCLE_EVENTS)
    .find(
      { rf, cost_center_concat: { $in: [...costCenters] }, action: "return" },
      { projection: { _id: 0, cost_center_concat: 1, comment: 1, by: 1, name: 1, at: 1 } },
    )
    .sort({ rf: -1, cost_center_concat: -1, at: -1 })
    .toArray();
  for (const { cost_center_concat, comment, by, name, at } of events)
    if (!returns.has(cost_center_concat)) returns.set(cost_center_concat, { comment, by, name, at });
  return returns;
}

/** A cost centre's transitions in one RF, oldest first. */
export async function timelineOf(rf: string, cost_center_concat: string, limit = 500): Promise<CycleEvent[]> {
  return (await db())
    .collection<CycleEvent>(FORECAST_CYCLE_EVENTS)
    .find({ rf, cost_center_concat }, { projection: { _id: 0 } })
    .sort({ at: 1 })
    .limit(limit)
    .toArray();
}

/** What a cost centre's review shows of its cycle: its record, its timeline and its preparers (e-mails, sorted). */
export type ReviewCycle = { record: CycleRecord | null; events: CycleEvent[]; preparers: string[] };

/**
 * A cost centre's cycle as its review reads it, in one round trip: the record (cycleOf), the timeline's first `limit`
 * events (timelineOf) and the preparers (preparersOf), each from its own collection and index, joined by
 * `$unionWith`.
 */
export async function reviewCycleOf(rf: string, cost_center_concat: string, limit = 500): Promise<ReviewCycle> {
  const part = (name: string) => [{ $unset: "_id" }, { $replaceWith: { part: name, doc: "$$ROOT" } }];
  // Read together with the page's other reads of the same turn (the review's grid).
  const rows = await aggregateTogether<{
    part: "record" | "event" | "preparer";
    doc: CycleRecord & CycleEvent & PreparerRecord;
  }>(FORECAST_CYCLE, [
    { $match: { rf, cost_center_concat } },
    { $limit: 1 },
    ...part("record"),
    {
      $unionWith: {
        coll: FORECAST_CYCLE_EVENTS,
        pipeline: [{ $match: { rf, cost_center_concat } }, { $sort: { at: 1 } }, { $limit: limit }, ...part("event")],
      },
    },
    {
      $unionWith: {
        coll: FORECAST_PREPARERS,
        pipeline: [
          { $match: { cost_center_concat } },
          { $sort: { cost_center_concat: 1, user: 1 } },
          ...part("preparer"),
        ],
      },
    },
  ]);
  const cycle: ReviewCycle = { record: null, events: [], preparers: [] };
  for (const { part: kind, doc } of rows) {
    if (kind === "record") cycle.record = doc;
    else if (kind === "event") cycle.events.push(doc);
    else cycle.preparers.push(doc.user);
  }
  return cycle;
}

// ---------------------------------------------------------------------------------------------
// Preparers

/** The preparers of the given cost centres (e-mails), by cost centre. */
export async function preparersOf(costCenters?: readonly string[]): Promise<Map<string, string[]>> {
  const filter = costCenters ? { cost_center_concat: { $in: [...costCenters] } } : {};
  // Read together with the page's other reads of the same turn (the status board's cycle records).
  const rows = await aggregateTogether<PreparerRecord>(FORECAST_PREPARERS, [
    { $match: filter },
    { $sort: { cost_center_concat: 1, user: 1 } },
    { $project: { _id: 0, cost_center_concat: 1, user: 1 } },
  ]);
  const map = new Map<string, string[]>();
  for (const row of rows) {
    const list = map.get(row.cost_center_concat) ?? [];
    list.push(row.user);
    map.set(row.cost_center_concat, list);
  }
  return map;
}

export async function isPreparer(cost_center_concat: string, user: string): Promise<boolean> {
  return (
    (await (
      await db()
    )
      .collection<PreparerRecord>(FORECAST_PREPARERS)
      .countDocuments({ cost_center_concat, user }, { limit: 1 })) > 0
  );
}

/** The cost centres a user prepares. */
export async function costCentersPreparedBy(user: string): Promise<string[]> {
  const rows = await (await db())
    .collection<PreparerRecord>(FORECAST_PREPARERS)
    .find({ user }, { projection: { _id: 0, cost_center_concat: 1 } })
    .toArray();
  return rows.map((r) => r.cost_center_concat);
}

/** Adds assignments (an existing one is left as it is); returns how many were new. */
export async function assignPreparers(
  pairs: readonly { cost_center_concat: string; user: string }[],
  by: string,
  now: Date,
  given?: Db,
): Promise<number> {
  if (pairs.length === 0) return 0;
  const result = await (await db(given)).collection<PreparerRecord>(FORECAST_PREPARERS).bulkWrite(
    pairs.map(({ cost_center_concat, user }) => ({
      updateOne: {
        filter: { cost_center_concat, user },
        update: { $setOnInsert: { cost_center_concat, user, assigned_at: now, assigned_by: by } },
        upsert: true,
      },
    })),
    { ordered: false },
  );
  return result.upsertedCount;
}

/** Removes one assignment; whether it existed. */
export async function unassignPreparer(cost_center_concat: string, user: string): Promise<boolean> {
  const result = await (await db())
    .collection<PreparerRecord>(FORECAST_PREPARERS)
    .deleteOne({ cost_center_concat, user });
  return result.deletedCount === 1;
}

/** The cost centres that have at least one preparer (the "sem responsável" filter of the preparers' screen). */
export async function preparedCostCenters(): Promise<Set<string>> {
  const names: unknown[] = await (await db())
    .collection<PreparerRecord>(FORECAST_PREPARERS)
    .distinct("cost_center_concat");
  return new Set(names.filter((n): n is string => typeof n === "string"));
}

/** Every assignment, by cost centre and user (index costCenter_user_unique), in pages: the preparers' template. */
export async function* allPreparerPages(
  pageSize = 1000,
): AsyncGenerator<{ cost_center_concat: string; user: string }[]> {
  const cursor = (await db())
    .collection<PreparerRecord>(FORECAST_PREPARERS)
    .find({}, { projection: { _id: 0, cost_center_concat: 1, user: 1 } })
    .sort({ cost_center_concat: 1, user: 1 })
    .batchSize(pageSize);
  let page: { cost_center_concat: string; user: string }[] = [];
  for await (const row of cursor) {
    page.push({ cost_center_concat: row.cost_center_concat, user: row.user });
    if (page.length === pageSize) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/** Records that `user` got the reminder of `rf` on `day` (YYYY-MM-DD); false when it was already recorded. */
export async function recordReminder(rf: string, day: string, user: string, now: Date): Promise<boolean> {
  try {
    await (await db())
      .collection<{ _id: string; at: Date }>(FORECAST_REMINDERS)
      .insertOne({ _id: `${rf}|${day}|${user}`, at: now });
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === 11000) return false;
    throw error;
  }
}
