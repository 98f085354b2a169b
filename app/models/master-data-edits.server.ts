import type { AnyBulkWriteOperation, Document, Filter, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { noteDataChanged } from "./dashboard-cache.server";
import {
  type EditableMasterData,
  MASTER_DATA_EDITABLE_FIELDS,
  MASTER_DATA_HISTORY,
  type MasterDataChange,
} from "./master-data.server";

/**
 * Writes to the valid master-data bases made through the portal (an edited Excel export sent back): only the fields
 * of the base's import template, each row in one update whose filter also holds the values the edit was checked
 * against, so a row someone changed meanwhile is left alone; every applied field is recorded in master_data_history.
 */

export type MasterDataValue = string | Date | null;

/** One row's edit: the fields to set, with the value each had when the edit was checked. */
export type MasterDataRowEdit = {
  id: ObjectId;
  fields: ReadonlyArray<{ field: string; old: MasterDataValue; value: MasterDataValue }>;
};

export type MasterDataSaveOutcome = {
  /** The rows written, with their changes recorded. */
  applied: ObjectId[];
  /** The rows someone changed between the check and the write: nothing written to them. */
  missed: ObjectId[];
};

const sameValue = (a: unknown, b: MasterDataValue) =>
  a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : (a ?? null) === b;

export async function saveMasterDataEdits(
  collection: EditableMasterData,
  edits: readonly MasterDataRowEdit[],
  user: string,
  at: Date = new Date(),
  via?: "excel",
): Promise<MasterDataSaveOutcome> {
  const allowed = new Set(MASTER_DATA_EDITABLE_FIELDS[collection]);
  const wanted = edits.filter((e) => e.fields.length > 0);
  for (const edit of wanted) {
    for (const { field } of edit.fields)
      if (!allowed.has(field)) throw new Error(`${field} is not an editable field of ${collection}`);
  }
  if (wanted.length === 0) return { applied: [], missed: [] };
  const db = await getDb();
  const rows = db.collection<Document>(collection);
  const operations: AnyBulkWriteOperation<Document>[] = wanted.map((edit) => {
    // null also matches a missing field: a row imported before the field existed.
    const filter: Filter<Document> = { _id: edit.id };
    const set: Document = { updatedBy: user, updatedAt: at };
    for (const { field, old, value } of edit.fields) {
      filter[field] = old;
      set[field] = value;
    }
    return { updateOne: { filter, update: { $set: set } } };
  });
  const result = await rows.bulkWrite(operations, { ordered: false });
  let applied = wanted;
  if (result.matchedCount !== operations.length) {
    // Someone changed some of these rows meanwhile: keep the rows that now hold our values.
    const after = await rows.find({ _id: { $in: wanted.map((e) => e.id) } }).toArray();
    const current = new Map(after.map((d) => [String(d._id), d]));
    applied = wanted.filter((e) =>
      e.fields.every(({ field, value }) => sameValue(current.get(String(e.id))?.[field], value)),
    );
  }
  const appliedIds = new Set(applied.map((e) => String(e.id)));
  const changes: MasterDataChange[] = applied.flatMap((e) =>
    e.fields.map(({ field, old, value }) => ({
      collection,
      rowId: e.id,
      field,
      old,
      new: value,
      user,
      at,
      ...(via ? { via } : {}),
    })),
  );
  if (changes.length > 0) {
    await db.collection<MasterDataChange>(MASTER_DATA_HISTORY).insertMany(changes);
    await noteDataChanged([collection], db);
  }
  return {
    applied: applied.map((e) => e.id),
    missed: wanted.filter((e) => !appliedIds.has(String(e.id))).map((e) => e.id),
  };
}

/** A row's recorded changes, newest first (index collection_rowId_at). */
export async function masterDataHistory(
  collection: EditableMasterData,
  rowId: ObjectId,
  limit = 100,
): Promise<MasterDataChange[]> {
  return (await getDb())
    .collection<MasterDataChange>(MASTER_DATA_HISTORY)
    .find({ collection, rowId })
    .sort({ at: -1 })
    .limit(limit)
    .toArray();
}
