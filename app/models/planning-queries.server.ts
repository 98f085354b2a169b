import { EJSON } from "bson";
import { type Collection, type Document, type Filter, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import {
  ATTRIBUTES,
  type AttributeField,
  chosenAttributes,
  competencyRange,
  effectiveChannels,
  filterMatchesRow,
  type GroupEdit,
  multiplierOf,
  PLANNING_PAGE_SIZE,
  type PlanningFilter,
  QUANTITY_MAX,
} from "~/models/planning.fields";
import { readPageOrLast } from "~/shared/pagination";
import { dataStates, noteDataChanged } from "./dashboard-cache.server";
import {
  type ConflictRecord,
  FEW_VALUED_ATTRIBUTES,
  PLANNING_HISTORY,
  PLANNING_QUANTITY,
  PLANNING_SAVES,
  type PlanningHistoryRecord,
  type PlanningQuantityRow,
  type PlanningSaveRecord,
  type SaveScreen,
} from "./planning.server";
import { recordedAttributeValues, skusOfAttributes } from "./planning-attribute-sets.server";

/**
 * Reads and writes of the planning quantity screens (/ij/plan_edit, /ij/report_preview). Queries are built
 * only from a validated PlanningFilter (app/features/planning/planning.ts), never from what a request sent, and keep
 * the shapes the declared indexes serve (models/planning.server.ts).
 */

async function collections() {
  const db = await getDb();
  return {
    rows: db.collection<PlanningQuantityRow>(PLANNING_QUANTITY),
    saves: db.collection<PlanningSaveRecord>(PLANNING_SAVES),
    history: db.collection<PlanningHistoryRecord>(PLANNING_HISTORY),
  };
}

/** The MongoDB filter of a planning filter: channel $in (every channel when none is chosen), a dateRef range, $in lists. */
export function planningQuery(filter: PlanningFilter): Filter<PlanningQuantityRow> {
  const { from, to } = competencyRange(filter);
  const query: Filter<PlanningQuantityRow> = {
    channel: { $in: effectiveChannels(filter) },
    dateRef: { $gte: from, $lte: to },
  };
  if (filter.sku.length > 0) query.sku = { $in: [...filter.sku] };
  for (const a of chosenAttributes(filter)) (query as Record<string, unknown>)[a.field] = { $in: [...filter[a.param]] };
  return query;
}

/**
 * Every value the plan's rows hold in `field`, and null when a row has none: what `$in` must name so that the condition
 * admits every row. Read from the field's own index (one seek per value) when planning_attribute_values has not recorded
 * the field (a data directory of an older release, until `db:indexes` rebuilds it).
 */
async function everyValueOf(rows: Collection<PlanningQuantityRow>, field: AttributeField): Promise<unknown[]> {
  const [values, withoutValue] = await Promise.all([
    rows.distinct(field),
    rows.findOne({ [field]: null } as Filter<PlanningQuantityRow>, { projection: { _id: 1 } }),
  ]);
  const named: unknown[] = values;
  return withoutValue && !named.includes(null) ? [...named, null] : named;
}

/**
 * A filter by the few-valued attributes alone (hero, ABCD, PLC; no SKU and no other attribute): the planning query with
 * every value of the few-valued attributes not chosen named, so that hero_abcd_plc_channel_* hold its rows as a few
 * ranges (2 × 5 × 6 combinations at most, per channel) that are each in the screen's order: the page merges them and
 * the count adds them up, whatever the values' share of the plan. Naming every value admits the same rows as no
 * condition. Undefined for any other filter.
 */
async function fewValuedQuery(filter: PlanningFilter): Promise<Filter<PlanningQuantityRow> | undefined> {
  if (filter.sku.length > 0) return undefined;
  const chosen = chosenAttributes(filter);
  if (chosen.length === 0 || chosen.some((a) => !FEW_VALUED_ATTRIBUTES.includes(a.field))) return undefined;
  const { rows } = await collections();
  const open = FEW_VALUED_ATTRIBUTES.filter((field) => !chosen.some((a) => a.field === field));
  const recorded =
    open.length > 0 ? await recordedAttributeValues(await getDb()) : new Map<AttributeField, unknown[]>();
  const values = await Promise.all(open.map((field) => recorded.get(field) ?? everyValueOf(rows, field)));
  const query = planningQuery(filter) as Record<string, unknown>;
  open.forEach((field, i) => {
    query[field] = { $in: values[i] };
  });
  return query as Filter<PlanningQuantityRow>;
}

/**
 * The query the screens run for a filter: planningQuery, with every value of the open few-valued attributes named
 * (fewValuedQuery), or narrowed to the SKUs whose attribute sets match when they are few
 * (models/planning-attribute-sets.server.ts). With no mixed SKU the named SKUs replace the attribute conditions, so a
 * count is read from the sku_channel_dateRef index alone. Null when no SKU has the attributes (nothing to read).
 */
export async function narrowedPlanningQuery(filter: PlanningFilter): Promise<Filter<PlanningQuantityRow> | null> {
  const few = await fewValuedQuery(filter);
  if (few) return few;
  const query = planningQuery(filter);
  const selection = await skusOfAttributes(await getDb(), filter);
  if (!selection) return query;
  if (selection.kind === "none") return null;
  if (selection.exact) for (const a of ATTRIBUTES) delete (query as Record<string, unknown>)[a.field];
  return { ...query, sku: { $in: selection.skus } };
}

const NEWEST_FIRST = { creationDate: -1, _id: -1 } as const;

const PAGE_FIELDS = {
  creationDate: 1,
  sku: 1,
  material_description: 1,
  valor: 1,
  marca: 1,
  channel: 1,
  hero: 1,
  abcd: 1,
  plc_localsku: 1,
  category_sku: 1,
  categoria_principal_sku: 1,
  sub_categoria_sku: 1,
  dateRef: 1,
  revision: 1,
} as const;

export type PlanningRow = Omit<PlanningQuantityRow, "_id" | "updatedBy" | "updatedAt" | "lastSaveId"> & {
  _id: ObjectId;
};

/**
 * The sum of `valor` over the rows the query matches: one aggregation whose $match the count's index serves (the
 * same query as the count), grouped on the server.
 */
async function sumOfValor(coll: Collection<PlanningQuantityRow>, query: Filter<PlanningQuantityRow>): Promise<number> {
  // The sum reads every matching row (the count only its index keys): at scale 10 a broad filter is ~100,000 rows. It
  // is kept per filter until the rows change (the data version every planning writer announces, and the row count), so
  // paging through a filter, or coming back to it, does not read them all again.
  const key = EJSON.stringify(query, { relaxed: false });
  const state = (await dataStates([PLANNING_QUANTITY])).get(PLANNING_QUANTITY)!;
  const known = knownTotals.get(key);
  if (known?.state === state) return known.quantity;
  const [out] = await coll
    .aggregate<{ quantity: number }>([{ $match: query }, { $group: { _id: null, quantity: { $sum: "$valor" } } }])
    .toArray();
  const quantity = out?.quantity ?? 0;
  if (knownTotals.size >= KNOWN_TOTALS_MAX) knownTotals.clear();
  knownTotals.set(key, { state, quantity });
  return quantity;
}

const knownTotals = new Map<string, { state: string; quantity: number }>();
const KNOWN_TOTALS_MAX = 500;

/**
 * One page (20 rows, newest creationDate first) of the filter, the filter's row count and its total quantity (the sum
 * of `valor`), read together.
 */
export async function readPlanningPage(filter: PlanningFilter, requestedPage: number) {
  const { rows: coll } = await collections();
  const query = await narrowedPlanningQuery(filter);
  if (!query)
    return {
      ...(await readPageOrLast(
        requestedPage,
        PLANNING_PAGE_SIZE,
        async () => [] as PlanningRow[],
        async () => 0,
      )),
      quantity: 0,
    };
  const readPage = (page: number) =>
    coll
      .find(query, { projection: PAGE_FIELDS })
      .sort(NEWEST_FIRST)
      .skip((page - 1) * PLANNING_PAGE_SIZE)
      .limit(PLANNING_PAGE_SIZE)
      .toArray() as Promise<PlanningRow[]>;
  const [page, quantity] = await Promise.all([
    readPageOrLast(requestedPage, PLANNING_PAGE_SIZE, readPage, () => coll.countDocuments(query)),
    sumOfValor(coll, query),
  ]);
  return { ...page, quantity };
}

/**
 * Rows of the filter in the screen's order (newest creationDate first) from `after` on, by keyset, at most `limit` plus
 * one (the caller learns whether there is more): the API's read of the grid.
 */
export async function pagePlanningRows(
  filter: PlanningFilter,
  after: { creationDate: Date; id: ObjectId } | undefined,
  limit: number,
): Promise<PlanningRow[]> {
  const query = await narrowedPlanningQuery(filter);
  if (!query) return [];
  const { rows: coll } = await collections();
  const keyset: Filter<PlanningQuantityRow> | null = after
    ? {
        $or: [
          { creationDate: { $lt: after.creationDate } },
          { creationDate: after.creationDate, _id: { $lt: after.id } },
        ],
      }
    : null;
  return (await coll
    .find(keyset ? { $and: [query, keyset] } : query, { projection: PAGE_FIELDS })
    .sort(NEWEST_FIRST)
    .limit(limit + 1)
    .toArray()) as PlanningRow[];
}

/** How many rows the filter holds (a batch's reach). */
/** How many rows one export reads from the cursor at a time. */
const EXPORT_BATCH = 1_000;

/**
 * Every row of the filter in the screen's order (newest first), in batches from one cursor, with the revision each
 * was read at: what "Exportar Excel" writes, all pages of the filter, never held whole.
 */
export async function* planningRowsOfFilter(
  filter: PlanningFilter,
): AsyncGenerator<Array<PlanningRow & { revision: number }>> {
  const { rows: coll } = await collections();
  const query = await narrowedPlanningQuery(filter);
  if (!query) return;
  const cursor = coll
    .find(query, { projection: { ...PAGE_FIELDS, revision: 1 }, batchSize: EXPORT_BATCH })
    .sort(NEWEST_FIRST);
  let batch: Array<PlanningRow & { revision: number }> = [];
  try {
    for await (const row of cursor) {
      batch.push({ ...(row as PlanningRow), revision: row.revision ?? 0 });
      if (batch.length === EXPORT_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    await cursor.close();
  }
}

/** Months one "Distribuir total" takes at most (a SKU × channel over ten years). */
export const SPREAD_MONTHS_MAX = 120;

/**
 * The rows of one SKU in one channel within the filter's months, oldest month first (at most SPREAD_MONTHS_MAX + 1:
 * the caller learns there are more), with what a save checks: `revision`.
 */
export async function planningPairRows(
  filter: PlanningFilter,
  sku: string,
  channel: string,
): Promise<Array<Pick<PlanningRow, "_id" | "dateRef" | "valor"> & { revision: number }>> {
  const { rows: coll } = await collections();
  const found = await coll
    .find(
      { ...planningQuery(filter), sku: String(sku), channel: String(channel) as PlanningRow["channel"] },
      { projection: { dateRef: 1, valor: 1, revision: 1 } },
    )
    .sort({ dateRef: 1, _id: 1 })
    .limit(SPREAD_MONTHS_MAX + 1)
    .toArray();
  return found.map((r) => ({ _id: r._id, dateRef: r.dateRef, valor: r.valor, revision: r.revision ?? 0 }));
}

/** The quantities of one SKU in one channel in the given months (any filter): a spread's base. */
export async function planningPairValues(
  sku: string,
  channel: string,
  months: readonly Date[],
): Promise<Map<number, number>> {
  if (months.length === 0) return new Map();
  const { rows: coll } = await collections();
  const found = await coll
    .find(
      { sku: String(sku), channel: String(channel) as PlanningRow["channel"], dateRef: { $in: [...months] } },
      { projection: { dateRef: 1, valor: 1 } },
    )
    .toArray();
  const values = new Map<number, number>();
  for (const r of found) values.set(r.dateRef.getTime(), (values.get(r.dateRef.getTime()) ?? 0) + r.valor);
  return values;
}

/** One planning row by its id (any filter), or null. */
export async function planningRowById(id: string): Promise<PlanningRow | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  const { rows: coll } = await collections();
  return (await coll.findOne({ _id: new ObjectId(id) }, { projection: PAGE_FIELDS })) as PlanningRow | null;
}

/** The rows of the filter among `ids`, with their current value and revision (what an Excel import checks against). */
export async function planningRowsByIds(
  filter: PlanningFilter,
  ids: readonly ObjectId[],
): Promise<Array<PlanningRow & { revision: number }>> {
  if (ids.length === 0) return [];
  const { rows: coll } = await collections();
  const found = await coll
    .find({ ...planningQuery(filter), _id: { $in: [...ids] } }, { projection: { ...PAGE_FIELDS, revision: 1 } })
    .toArray();
  return found.map((row) => ({ ...(row as PlanningRow), revision: row.revision ?? 0 }));
}

export async function countPlanningRows(filter: PlanningFilter): Promise<number> {
  const { rows } = await collections();
  const query = await narrowedPlanningQuery(filter);
  return query ? rows.countDocuments(query) : 0;
}

/**
 * Records a save before it writes (status pending; completed with its counts after the write). `saveId`: the id the
 * browser was given with the preview; null when a save with that id was already recorded (a replay: nothing to write).
 */
async function startSave(
  saves: Collection<PlanningSaveRecord>,
  input: { user: string; screen: SaveScreen; filter: PlanningFilter; saveId?: ObjectId },
  kind: Pick<PlanningSaveRecord, "mode" | "batch" | "conflicts" | "via" | "rowHistory">,
): Promise<{ saveId: ObjectId; now: Date } | null> {
  const saveId = input.saveId ?? new ObjectId();
  const now = new Date();
  const record: PlanningSaveRecord = {
    _id: saveId,
    at: now,
    user: input.user,
    screen: input.screen,
    filter: input.filter,
    channels: effectiveChannels(input.filter),
    status: "pending",
    matched: 0,
    modified: 0,
    ...kind,
  };
  try {
    await saves.insertOne(record);
  } catch (error) {
    if (input.saveId && (error as { code?: unknown }).code === 11000) return null;
    throw error;
  }
  return { saveId, now };
}

/** Whether a save with this id was recorded (a batch preview's id is spent by its save). */
export async function planningSaveExists(saveId: ObjectId): Promise<boolean> {
  const { saves } = await collections();
  return (await saves.findOne({ _id: saveId }, { projection: { _id: 1 } })) !== null;
}

// ---------------------------------------------------------------------------------------------
// Individual save ("unitario"): per-row values, each refused if the row changed since it was read

export type QuantityEdit = { id: ObjectId; revision: number; valor: number };

export type IndividualOutcome =
  /** Some ids are not rows of this filter: nothing was written. */
  | { kind: "outside" }
  /** Every edited row changed since it was read: nothing was written. */
  | { kind: "conflict"; conflicts: ConflictRecord[] }
  | { kind: "saved"; saveId: ObjectId; saved: number; conflicts: ConflictRecord[] };

/** The revision a row was read with, as a filter (seeded rows may predate the field). */
const atRevision = (revision: number): Filter<PlanningQuantityRow> =>
  revision === 0 ? ({ revision: { $in: [0, null] } } as Filter<PlanningQuantityRow>) : { revision };

const conflictOf = (
  row: Pick<PlanningQuantityRow, "sku" | "channel" | "dateRef" | "valor"> & { _id: ObjectId },
): ConflictRecord => ({
  rowId: row._id,
  sku: row.sku,
  channel: row.channel,
  dateRef: row.dateRef,
  current: row.valor,
});

/**
 * Sets each edited row's valor and stamps its creationDate (spec 001 §7 "per-row set"), in one bulk write of
 * conditional updates: a row whose revision is no longer the one the page read is refused and reported, the
 * others are written. Every written row gets a history record (old and new value); the save itself is recorded.
 */
export async function saveQuantities(input: {
  user: string;
  screen: SaveScreen;
  filter: PlanningFilter;
  edits: QuantityEdit[];
  /** "excel": the values came from an edited export; "spread": from "Distribuir total" (on the save and in each row's history). */
  via?: "excel" | "spread";
}): Promise<IndividualOutcome> {
  const { rows, saves, history } = await collections();
  const ids = input.edits.map((e) => e.id);
  const current = await rows
    .find(
      { ...planningQuery(input.filter), _id: { $in: ids } },
      { projection: { valor: 1, revision: 1, sku: 1, channel: 1, dateRef: 1 } },
    )
    .toArray();
  const byId = new Map(current.map((r) => [r._id.toHexString(), r]));
  if (ids.some((id) => !byId.has(id.toHexString()))) return { kind: "outside" };

  const conflicts: ConflictRecord[] = [];
  const toWrite: QuantityEdit[] = [];
  for (const edit of input.edits) {
    const row = byId.get(edit.id.toHexString())!;
    if ((row.revision ?? 0) !== edit.revision) conflicts.push(conflictOf(row));
    else toWrite.push(edit);
  }
  if (toWrite.length === 0) return { kind: "conflict", conflicts };

  const { saveId, now } = (await startSave(saves, input, {
    mode: "unitario",
    batch: null,
    conflicts,
    ...(input.via ? { via: input.via } : {}),
  }))!;
  const result = await rows.bulkWrite(
    toWrite.map((edit) => ({
      updateOne: {
        filter: { _id: edit.id, ...atRevision(edit.revision) },
        update: {
          $set: { valor: edit.valor, creationDate: now, updatedBy: input.user, updatedAt: now, lastSaveId: saveId },
          $inc: { revision: 1 },
        },
      },
    })),
    { ordered: false },
  );
  let written = toWrite;
  if (result.matchedCount < toWrite.length) {
    // Another save won a row between the read and the write: the rows not carrying this save are conflicts.
    const after = await rows
      .find(
        { _id: { $in: toWrite.map((e) => e.id) } },
        { projection: { valor: 1, sku: 1, channel: 1, dateRef: 1, lastSaveId: 1 } },
      )
      .toArray();
    const mine = new Set(after.filter((r) => r.lastSaveId?.equals(saveId)).map((r) => r._id.toHexString()));
    written = toWrite.filter((e) => mine.has(e.id.toHexString()));
    conflicts.push(...after.filter((r) => !mine.has(r._id.toHexString())).map(conflictOf));
  }
  if (written.length > 0) {
    await noteDataChanged([PLANNING_QUANTITY]);
    await history.insertMany(
      written.map((edit) => ({
        rowId: edit.id,
        saveId,
        at: now,
        user: input.user,
        mode: "unitario" as const,
        screen: input.screen,
        ...(input.via ? { via: input.via } : {}),
        old: byId.get(edit.id.toHexString())!.valor,
        new: edit.valor,
      })),
    );
  }
  await saves.updateOne(
    { _id: saveId },
    { $set: { status: "done", matched: written.length, modified: written.length, conflicts } },
  );
  return written.length === 0
    ? { kind: "conflict", conflicts }
    : { kind: "saved", saveId, saved: written.length, conflicts };
}

// ---------------------------------------------------------------------------------------------
// Batch save ("lote"): one updateMany over the whole filter

/**
 * The batch's new valor, evaluated by the database for each row: the same arithmetic as applyMultiplier
 * (app/features/planning/planning.ts) — floor((valor × multiplier + 50) / 100), capped at QUANTITY_MAX.
 */
export function batchValorExpression(multiplier: number): Document {
  return {
    $min: [
      QUANTITY_MAX,
      { $floor: { $divide: [{ $add: [{ $multiply: [{ $ifNull: ["$valor", 0] }, multiplier] }, 50] }, 100] } },
    ],
  };
}

export type BatchOutcome =
  | { kind: "stale" }
  /** A save with this preview's id was already made: nothing was written. */
  | { kind: "replayed" }
  | { kind: "saved"; saveId: ObjectId; matched: number; modified: number };

/**
 * Multiplies valor by the group edit's factor and stamps creationDate on every row of the filter — all pages —
 * in ONE updateMany with an aggregation-pipeline update (spec 001 §7 "batch multiply"). Refused ("stale") when
 * a row of the filter changed after `loadedAt`, when the page the user previewed was read, and ("replayed") when the
 * preview's one-time `saveId` was already spent by a save (the same preview saved again: Back, a reload, a resent
 * form). The save is recorded under that id before the update (pending; a unique _id, so of two identical requests
 * one writes) and completed with the counts after it. Each changed row gets a history record with its old and new
 * valor, copied by the database from the updated rows (the update keeps the old value in `batchFrom`).
 */
export async function saveBatch(input: {
  user: string;
  screen: SaveScreen;
  filter: PlanningFilter;
  edit: GroupEdit;
  loadedAt: Date;
  /** The preview's one-time id (the screen always names one; other callers get a fresh id). */
  saveId?: ObjectId;
}): Promise<BatchOutcome> {
  const { rows, saves } = await collections();
  const query = planningQuery(input.filter);
  const changed = await rows.findOne({ ...query, creationDate: { $gt: input.loadedAt } }, { projection: { _id: 1 } });
  if (changed) return { kind: "stale" };

  const multiplier = multiplierOf(input.edit);
  const batch = { percent: input.edit.percent, op: input.edit.op };
  const started = await startSave(saves, input, {
    mode: "lote",
    batch: { ...batch, multiplier },
    conflicts: [],
    rowHistory: true,
  });
  if (!started) return { kind: "replayed" };
  const { saveId, now } = started;
  try {
    const result = await rows.updateMany(query, [
      {
        $set: {
          valor: batchValorExpression(multiplier),
          batchFrom: { $ifNull: ["$valor", 0] },
          creationDate: now,
          updatedBy: input.user,
          updatedAt: now,
          lastSaveId: saveId,
          revision: { $add: [{ $ifNull: ["$revision", 0] }, 1] },
        },
      },
    ]);
    if (result.modifiedCount > 0) {
      await noteDataChanged([PLANNING_QUANTITY]);
      // One history record per changed row, written by the database (no row passes through this process).
      await rows
        .aggregate([
          { $match: { ...query, lastSaveId: saveId } },
          {
            $project: {
              _id: 0,
              rowId: "$_id",
              saveId: { $literal: saveId },
              at: { $literal: now },
              user: { $literal: input.user },
              mode: { $literal: "lote" },
              screen: { $literal: input.screen },
              batch: { $literal: batch },
              old: "$batchFrom",
              new: "$valor",
            },
          },
          { $merge: { into: PLANNING_HISTORY, whenMatched: "fail", whenNotMatched: "insert" } },
        ])
        .toArray();
    }
    await saves.updateOne(
      { _id: saveId },
      { $set: { status: "done", matched: result.matchedCount, modified: result.modifiedCount } },
    );
    return { kind: "saved", saveId, matched: result.matchedCount, modified: result.modifiedCount };
  } catch (error) {
    await saves.updateOne({ _id: saveId }, { $set: { status: "failed" } }).catch(() => undefined);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// What was saved, and a row's history

/** A save of `user`, for the confirmation shown after it (another user's save id shows nothing). */
export async function readOwnSave(saveId: ObjectId, user: string): Promise<PlanningSaveRecord | null> {
  const { saves } = await collections();
  return saves.findOne({ _id: saveId, user });
}

export type HistoryEntry =
  | { kind: "unitario"; at: Date; user: string; old: number; new: number; via?: "excel" | "upload" | "spread" }
  /** A batch: the row's old and new valor when the batch recorded them per row, else how many rows it changed. */
  | {
      kind: "lote";
      at: Date;
      user: string;
      percent: number;
      op: GroupEdit["op"];
      rows: number;
      old?: number;
      new?: number;
    };

/** How many history entries a row shows, and how many batch records of its channel are looked at for them. */
export const HISTORY_LIMIT = 50;
const BATCH_SCAN_LIMIT = 500;

/**
 * The history of one row of the filter, newest first: its own records (individual saves and batches, old → new), and
 * the batch saves of older releases whose filter covered it (those kept the filter and factor, not a value per row).
 * Null when the id is not a row of this filter.
 */
export async function readRowHistory(
  filter: PlanningFilter,
  rowId: ObjectId,
): Promise<{ row: PlanningRow; entries: HistoryEntry[] } | null> {
  const { rows, saves, history } = await collections();
  const row = (await rows.findOne(
    { ...planningQuery(filter), _id: rowId },
    { projection: PAGE_FIELDS },
  )) as PlanningRow | null;
  if (!row) return null;
  const [individual, batches] = await Promise.all([
    history.find({ rowId }).sort({ at: -1 }).limit(HISTORY_LIMIT).toArray(),
    // Attributes and dateRef never change, so a batch's stored filter tells whether it covered the row;
    // rows created after a batch (the _id's time) were not there to be changed.
    saves
      .find({ mode: "lote", channels: row.channel, at: { $gte: rowId.getTimestamp() } })
      .sort({ at: -1 })
      .limit(BATCH_SCAN_LIMIT)
      .toArray(),
  ]);
  const entries: HistoryEntry[] = [
    ...individual.map(
      (h): HistoryEntry =>
        h.mode === "lote" && h.batch
          ? {
              kind: "lote",
              at: h.at,
              user: h.user,
              percent: h.batch.percent,
              op: h.batch.op,
              rows: 1,
              old: h.old,
              new: h.new,
            }
          : { kind: "unitario", at: h.at, user: h.user, old: h.old, new: h.new, ...(h.via ? { via: h.via } : {}) },
    ),
    // Batches that recorded each row (rowHistory) are among the row's own records above.
    ...batches
      .filter((b) => b.status === "done" && b.batch && !b.rowHistory && filterMatchesRow(b.filter, row))
      .map((b) => ({
        kind: "lote" as const,
        at: b.at,
        user: b.user,
        percent: b.batch!.percent,
        op: b.batch!.op,
        rows: b.modified,
      })),
  ];
  entries.sort((a, b) => b.at.getTime() - a.at.getTime());
  return { row, entries: entries.slice(0, HISTORY_LIMIT) };
}
