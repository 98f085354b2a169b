import type { Db, Document, FindCursor, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { FISCAL_ITEMS_NOK } from "./fiscal.server";
import { FORECAST_NOK } from "./forecast.server";
import { FPA_RESPONSIBLES_NOK } from "./fpa.server";
import { HR_AUX_NOK } from "./hr.server";
import { LEDGER_NOK } from "./ledger.server";
import { CHANNEL_NOK, PLANNING_SPEND_NOK, PRODUCT_MASTER_NOK } from "./master-data.server";
import { PLANNING_QUANTITY_NOK } from "./planning.server";
import { REPORTS_NOK, type ReportNokRow } from "./reports.server";

/**
 * The refused rows of the all-or-nothing uploads: the six spec-001 dataset templates (`<collection>_nok`, indexes
 * `sourceFileId` and `urlPath_id`) and report packages (`reports_nok`, index `sourceFileId`). A file's rows are found by
 * its id (`sourceFileId`), read in line order, never all at once. Collection names come from this list only; filters
 * hold ObjectIds and strings the caller took from the file record, never request input.
 */

/** The NOK collections of the dataset templates: rows keep the template's columns as text; `_id` grows with the line. */
export const DATASET_NOK_COLLECTIONS = [
  PLANNING_QUANTITY_NOK,
  FORECAST_NOK,
  LEDGER_NOK,
  HR_AUX_NOK,
  FPA_RESPONSIBLES_NOK,
  FISCAL_ITEMS_NOK,
] as const;

/** Every collection a job's refused rows may be in (outside the spec-000 master-data bases). */
export const UPLOAD_NOK_COLLECTIONS = [...DATASET_NOK_COLLECTIONS, REPORTS_NOK] as const;
export type UploadNokCollection = (typeof UPLOAD_NOK_COLLECTIONS)[number];

/** The report package manifest's columns, as a refused row keeps them. */
export const REPORT_NOK_COLUMNS = ["name", "origin", "dateRef", "file"] as const satisfies ReadonlyArray<
  keyof ReportNokRow
>;

/**
 * The NOK bases of spec 000's master-data templates. Their rows are a file's by `urlPath` (seeded rows carry no
 * `sourceFileId`), read in line order through `urlPath_id`, as /repo/master-data narrows a base to a file. The job
 * lists link an uploader who may not open the repository (USER BRONZE) to these rows as a CSV.
 */
export const MASTER_DATA_NOK_COLLECTIONS = [PRODUCT_MASTER_NOK, CHANNEL_NOK, PLANNING_SPEND_NOK] as const;
export type MasterDataNokCollection = (typeof MASTER_DATA_NOK_COLLECTIONS)[number];
/** Any collection the refused-rows download reads. */
export type NokCollection = UploadNokCollection | MasterDataNokCollection;

export function isUploadNokCollection(name: unknown): name is UploadNokCollection {
  return typeof name === "string" && (UPLOAD_NOK_COLLECTIONS as readonly string[]).includes(name);
}

export function isMasterDataNokCollection(name: unknown): name is MasterDataNokCollection {
  return typeof name === "string" && (MASTER_DATA_NOK_COLLECTIONS as readonly string[]).includes(name);
}

/**
 * For the files of a job-list page (their ids), the NOK collection holding refused rows of each: one `distinct` per
 * collection on its `sourceFileId` index, over at most a page of ids. Keyed by the id's hex text.
 */
export async function nokCollectionsOfFiles(
  fileIds: readonly ObjectId[],
  db?: Db,
): Promise<Map<string, UploadNokCollection>> {
  const found = new Map<string, UploadNokCollection>();
  if (fileIds.length === 0) return found;
  const database = db ?? (await getDb());
  const ids = [...fileIds];
  const lists = await Promise.all(
    UPLOAD_NOK_COLLECTIONS.map((name) =>
      database.collection(name).distinct("sourceFileId", { sourceFileId: { $in: ids } }),
    ),
  );
  UPLOAD_NOK_COLLECTIONS.forEach((name, i) => {
    for (const id of lists[i]) {
      const key = typeof id === "object" && id !== null && "toHexString" in id ? (id as ObjectId).toHexString() : null;
      if (key && !found.has(key)) found.set(key, name);
    }
  });
  return found;
}

/** A file as its refused rows are found: its id (an all-or-nothing upload's rows) and its stored object's path. */
export type NokFileKey = { id: ObjectId; urlPath: string };

/**
 * For several files, the NOK collection holding refused rows of each (keyed by the id's hex text; a file without any
 * is absent): an all-or-nothing upload's by its id, else a master-data base's by its path, as nokCollectionOfFile
 * finds them. One `distinct` per collection on its index (`sourceFileId`, `urlPath_id`) over the files given.
 */
export async function nokCollectionsOfFileKeys(
  files: readonly NokFileKey[],
  db?: Db,
): Promise<Map<string, NokCollection>> {
  const found = new Map<string, NokCollection>();
  if (files.length === 0) return found;
  const database = db ?? (await getDb());
  const paths = [...new Set(files.map((f) => f.urlPath))];
  const [uploads, masterLists] = await Promise.all([
    nokCollectionsOfFiles(
      files.map((f) => f.id),
      database,
    ),
    Promise.all(
      MASTER_DATA_NOK_COLLECTIONS.map((name) =>
        database.collection(name).distinct("urlPath", { urlPath: { $in: paths } }),
      ),
    ),
  ]);
  const masterOf = new Map<string, MasterDataNokCollection>();
  MASTER_DATA_NOK_COLLECTIONS.forEach((name, i) => {
    for (const path of masterLists[i]) if (typeof path === "string" && !masterOf.has(path)) masterOf.set(path, name);
  });
  for (const file of files) {
    const key = file.id.toHexString();
    const collection = uploads.get(key) ?? masterOf.get(file.urlPath);
    if (collection) found.set(key, collection);
  }
  return found;
}

/**
 * The NOK collection holding refused rows of one file, or null when none does (one indexed lookup per collection):
 * an all-or-nothing upload's by its id; with `urlPath` (the file's), a master-data base's by that path.
 */
export async function nokCollectionOfFile(fileId: ObjectId, db?: Db, urlPath?: string): Promise<NokCollection | null> {
  const database = db ?? (await getDb());
  const [hits, masterHits] = await Promise.all([
    Promise.all(
      UPLOAD_NOK_COLLECTIONS.map((name) =>
        database.collection(name).findOne({ sourceFileId: fileId }, { projection: { _id: 1 } }),
      ),
    ),
    typeof urlPath === "string"
      ? Promise.all(
          MASTER_DATA_NOK_COLLECTIONS.map((name) =>
            database.collection(name).findOne({ urlPath }, { projection: { _id: 1 } }),
          ),
        )
      : Promise.resolve([]),
  ]);
  const index = hits.findIndex((hit) => hit !== null);
  if (index >= 0) return UPLOAD_NOK_COLLECTIONS[index];
  const master = masterHits.findIndex((hit) => hit !== null);
  return master < 0 ? null : MASTER_DATA_NOK_COLLECTIONS[master];
}

/** Rows read per round trip while a file's NOK rows stream out. */
export const NOK_ROWS_BATCH = 1_000;

/**
 * A cursor over one file's refused rows in line order, reading only `_lineNumber`, `Error` and `fields` (names the
 * caller takes from its template, re-checked here). A dataset's rows are read by `urlPath_id` (`urlPath` is the
 * file's, `_id` grows with the line), so nothing is sorted in memory; a report package's by `sourceFileId`, sorted
 * by line (a package's manifest is small). The caller closes the cursor.
 */
export async function nokRowsCursor(
  collection: NokCollection,
  file: { id: ObjectId; urlPath: string },
  fields: readonly string[],
  db?: Db,
  /** HR refused rows (of the HR template or a file classified HR): only these branches (hr.server.ts branchScopeOf). */
  branches?: readonly string[],
): Promise<FindCursor<Document>> {
  if (!isUploadNokCollection(collection) && !isMasterDataNokCollection(collection))
    throw new Error(`not an upload NOK collection: ${String(collection)}`);
  const projection: Document = { _id: 0, _lineNumber: 1, Error: 1 };
  for (const field of fields) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) projection[field] = 1;
  const database = db ?? (await getDb());
  if (isMasterDataNokCollection(collection)) {
    // A master-data base's rows of this file: by its path, in line order (`urlPath_id`), as /repo/master-data shows them.
    return database
      .collection(collection)
      .find(
        {
          urlPath: String(file.urlPath),
          // An HR file's rows for a store-limited viewer: a master-data row names no branch, so none is theirs.
          ...(branches ? { filial_nome: { $in: branches.map(String) } } : {}),
        },
        { projection, batchSize: NOK_ROWS_BATCH },
      )
      .sort({ _id: 1 });
  }
  const found =
    collection === REPORTS_NOK
      ? database
          .collection(collection)
          .find({ sourceFileId: file.id }, { projection, batchSize: NOK_ROWS_BATCH })
          .sort({ _lineNumber: 1, _id: 1 })
      : database
          .collection(collection)
          .find(
            {
              urlPath: String(file.urlPath),
              sourceFileId: file.id,
              ...(branches ? { filial_nome: { $in: branches.map(String) } } : {}),
            },
            { projection, batchSize: NOK_ROWS_BATCH },
          )
          .sort({ _id: 1 });
  return found;
}
