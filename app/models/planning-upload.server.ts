import type { AnyBulkWriteOperation, Document } from "mongodb";
import { noteDataChanged } from "./dashboard-cache.server";
import {
  PLANNING_HISTORY,
  PLANNING_QUANTITY,
  type PlanningHistoryRecord,
  type PlanningQuantityRow,
} from "./planning.server";
import { recordAttributeSets } from "./planning-attribute-sets.server";
import {
  existingByKey,
  insertIgnoringDuplicates,
  keyText,
  type UploadCounts,
  type UploadMeta,
  uploadedRowId,
} from "./upload-rows.server";

/**
 * Planning quantities from an upload template (/captura/manual): upsert by (sku, channel, dateRef). A new row starts at
 * revision 0; a changed row gets the edit's stamps (creationDate, updatedBy, updatedAt, revision + 1, lastSaveId = the
 * file) and, when its quantity changed, a history record "via upload". An unchanged row is left alone, so applying
 * the same file again changes nothing.
 */

export const PLANNING_UPLOAD_KEY = ["sku", "channel", "dateRef"] as const;
export const PLANNING_UPLOAD_FIELDS = [
  "valor",
  "material_description",
  "marca",
  "hero",
  "abcd",
  "plc_localsku",
  "category_sku",
  "categoria_principal_sku",
  "sub_categoria_sku",
] as const;

export type PlanningUploadRow = Pick<
  PlanningQuantityRow,
  (typeof PLANNING_UPLOAD_KEY)[number] | (typeof PLANNING_UPLOAD_FIELDS)[number]
>;

export async function applyPlanningUpload(rows: readonly PlanningUploadRow[], meta: UploadMeta): Promise<UploadCounts> {
  const { db, file, user, now } = meta;
  const collection = db.collection<PlanningQuantityRow>(PLANNING_QUANTITY);
  const projection = Object.fromEntries(
    [...PLANNING_UPLOAD_KEY, ...PLANNING_UPLOAD_FIELDS, "revision"].map((f) => [f, 1 as const]),
  );
  const existing = await existingByKey(collection, PLANNING_UPLOAD_KEY, rows, projection, meta);
  const inserts: Document[] = [];
  const updates: AnyBulkWriteOperation<PlanningQuantityRow>[] = [];
  const history: PlanningHistoryRecord[] = [];
  let unchanged = 0;
  for (const row of rows) {
    const key = keyText(row, PLANNING_UPLOAD_KEY);
    const found = existing.get(key);
    if (!found) {
      inserts.push({
        _id: uploadedRowId(file, key),
        creationDate: now,
        ...row,
        updatedBy: user,
        updatedAt: now,
        revision: 0,
        lastSaveId: file,
      });
      continue;
    }
    const set: Record<string, unknown> = {};
    for (const field of PLANNING_UPLOAD_FIELDS) if (found[field] !== row[field]) set[field] = row[field];
    if (Object.keys(set).length === 0) {
      unchanged++;
      continue;
    }
    updates.push({
      updateOne: {
        filter: { _id: found._id },
        update: {
          $set: {
            ...set,
            creationDate: now,
            updatedBy: user,
            updatedAt: now,
            lastSaveId: file,
          } as Partial<PlanningQuantityRow>,
          $inc: { revision: 1 },
        },
      },
    });
    if (found.valor !== row.valor) {
      history.push({
        rowId: found._id,
        saveId: file,
        at: now,
        user,
        mode: "unitario",
        screen: "plan_edit",
        via: "upload",
        old: found.valor,
        new: row.valor,
      });
    }
  }
  // The attribute sets first: a row must never be in the plan before its SKU's set (models/planning-attribute-sets.server.ts).
  await recordAttributeSets(db, rows);
  const inserted = await insertIgnoringDuplicates(db.collection(PLANNING_QUANTITY), inserts);
  if (updates.length > 0) await collection.bulkWrite(updates, { ordered: false });
  if (history.length > 0)
    await db.collection<PlanningHistoryRecord>(PLANNING_HISTORY).insertMany(history, { ordered: false });
  if (inserted > 0 || updates.length > 0) await noteDataChanged([PLANNING_QUANTITY], db);
  return { inserted, updated: updates.length, unchanged, removed: 0 };
}
