import { ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import type { IndexDeclaration } from "./indexes";

/**
 * The outcome of an Excel round trip (an edited export sent back through a grid's screen): the counts and the list
 * of conflicts and refusals the screen shows after the import, with the list for download. Kept a day.
 */
export const EXCEL_IMPORTS = "excel_imports";

export type ExcelImportItem = {
  kind: "conflict" | "refused";
  line: number;
  row: string;
  column: string;
  /** The file's value (conflict and refusal alike). */
  value: string;
  /** Conflict: the value someone else saved since the export. */
  current?: string;
  /** Refusal: the rule the value broke; conflict: who changed the row, when known. */
  reason?: string;
};

export type ExcelImportRecord = {
  _id: ObjectId;
  /** Whose import it is: only they see it. */
  user: string;
  dataset: string;
  at: Date;
  expiresAt: Date;
  changed: number;
  items: ExcelImportItem[];
};

export const EXCEL_IMPORT_RETENTION_MS = 24 * 60 * 60 * 1000;

export const indexes: IndexDeclaration[] = [
  { collection: EXCEL_IMPORTS, key: { expiresAt: 1 }, options: { name: "expiresAt_ttl", expireAfterSeconds: 0 } },
];

export async function recordExcelImport(input: Omit<ExcelImportRecord, "_id" | "expiresAt">): Promise<ObjectId> {
  const _id = new ObjectId();
  await (await getDb())
    .collection<ExcelImportRecord>(EXCEL_IMPORTS)
    .insertOne({ ...input, _id, expiresAt: new Date(input.at.getTime() + EXCEL_IMPORT_RETENTION_MS) });
  return _id;
}

/** One of the user's imports of `dataset`, by its id (read by `_id`); null for anyone else's or an unknown id. */
export async function readExcelImport(id: string, user: string, dataset: string): Promise<ExcelImportRecord | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  return (await getDb()).collection<ExcelImportRecord>(EXCEL_IMPORTS).findOne({ _id: new ObjectId(id), user, dataset });
}
