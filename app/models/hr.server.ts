import { type AnyBulkWriteOperation, type Document, type Filter, ObjectId, type WithId } from "mongodb";
import { getDb } from "~/db.server";
import type { FigureEdit } from "~/models/hr.fields";
import { HR_COMMENT_MAX, HR_FIGURE_FIELDS, HR_ROW_LIMIT, type HrFigureField } from "~/models/hr.fields";
import { byPtBr } from "~/shared/collation";
import { maskCpf } from "~/shared/cpf";
import { addMonths, type Month, type MonthRange, monthOfDate, monthStartDate } from "~/shared/months";
import { noteDataChanged } from "./dashboard-cache.server";
import type { IndexDeclaration } from "./indexes";
import {
  existingByKey,
  insertIgnoringDuplicates,
  keyText,
  nokIndexes,
  type UploadCounts,
  type UploadMeta,
  uploadedRowId,
} from "./upload-rows.server";
import { findPermissionRecord } from "./user-permissions.server";

/** Monthly auxiliary HR figures per branch employee (spec 001 §3 "HR record"). */

export const HR_AUX = "hr_aux";
/** One document per changed value: who, when, old and new. */
export const HR_AUX_CHANGES = "hr_aux_changes";
/** The rows of uploaded HR files that broke a rule (import template "hr_aux"). */
export const HR_AUX_NOK = "hr_aux_nok";

export type HrAuxRecord = {
  _id?: ObjectId;
  marca_cod: string;
  marca_desc: string;
  filial_cod: string;
  filial_nome: string;
  /** The month of the figures: first day, UTC. */
  mes_apur: Date;
  matricula: string;
  nome: string;
  /** 11 digits, valid check digits; always shown masked. */
  cpf: string;
  cargo_cod: string;
  cargo_nome: string;
  /** Leave periods as text (e.g. "03/02/2026 a 07/02/2026"), empty when none. */
  datas_afastamento: string;
  vendas_adicionais: number;
  dias_media: number;
  result_qtde_servico: number;
  result_desafio_mensal: number;
  vendas_servicos: number;
  /** At most 255 characters. */
  comentario: string;
  /** The last change made through the portal. */
  updatedBy?: string;
  updatedAt?: Date;
};

export type HrChangedField = HrFigureField | "comentario";

export type HrAuxChange = {
  _id?: ObjectId;
  record_id: ObjectId;
  filial_nome: string;
  mes_apur: Date;
  matricula: string;
  field: HrChangedField;
  old: number | string;
  new: number | string;
  /** The e-mail of who changed it. */
  user: string;
  at: Date;
  /** "excel" when the value came from an edited export ("via Excel"); "upload" when from an upload template. */
  via?: "excel" | "upload";
  /** The one-time id of the page the save came from (the screen's saves): the same save sent again is refused. */
  save_id?: ObjectId;
};

export const indexes: IndexDeclaration[] = [
  // The grid's filter (branch, month range) and sort (mes_apur, nome, then _id for a stable order); also the
  // branch list (distinct filial_nome) and the people of a branch.
  {
    collection: HR_AUX,
    key: { filial_nome: 1, mes_apur: 1, nome: 1, _id: 1 },
    options: { name: "filial_mesApur_nome_id" },
  },
  { collection: HR_AUX_CHANGES, key: { record_id: 1, at: -1 }, options: { name: "record_at" } },
  { collection: HR_AUX_CHANGES, key: { filial_nome: 1, at: -1 }, options: { name: "filial_at" } },
  ...nokIndexes(HR_AUX_NOK),
];

async function auxCollection() {
  return (await getDb()).collection<HrAuxRecord>(HR_AUX);
}

// ---------------------------------------------------------------------------------------------
// Branch scope (docs/decisions.md "HR auxiliary data")

/** The branches a user may see: all of them, or the stores listed on the user's permission record. */
export type BranchScope = { kind: "all" } | { kind: "stores"; stores: string[] };

export async function branchScopeOf(email: string): Promise<BranchScope> {
  const record = await findPermissionRecord(email);
  return scopeOfStores(Array.isArray(record?.stores) ? record.stores : []);
}

/** The scope a permission record's `stores` give: those branches, or all when it names none. */
export function scopeOfStores(stores: readonly unknown[]): BranchScope {
  const named = stores.filter((s): s is string => typeof s === "string" && s.length > 0);
  return named.length > 0 ? { kind: "stores", stores: [...new Set(named)] } : { kind: "all" };
}

/** Whether `filial` is one of the scope's branches: the one rule of every path that reads or writes HR rows. */
export function inBranchScope(filial: string, scope: BranchScope): boolean {
  return scope.kind === "all" || scope.stores.includes(filial);
}

/** The distinct branches with auxiliary data that the scope lets the user see, by name (spec 001 §7 "Branches"). */
export async function listBranches(scope: BranchScope): Promise<string[]> {
  const collection = await auxCollection();
  const filter: Filter<HrAuxRecord> = scope.kind === "all" ? {} : { filial_nome: { $in: scope.stores } };
  const names = await collection.distinct("filial_nome", filter);
  return names.filter((n): n is string => typeof n === "string").sort(byPtBr);
}

/**
 * Whether `filial` is a branch with data that the scope lets the user see. A branch outside the scope answers
 * like one that does not exist, so a scoped user cannot learn which other branches there are.
 */
export async function branchVisible(filial: string, scope: BranchScope): Promise<boolean> {
  if (!inBranchScope(filial, scope)) return false;
  const found = await (await auxCollection()).findOne({ filial_nome: filial }, { projection: { _id: 1 } });
  return found !== null;
}

// ---------------------------------------------------------------------------------------------
// Reads

/** A grid row as it leaves the server: the CPF already masked. */
export type HrAuxRow = {
  id: string;
  filial_nome: string;
  mes_apur: Month;
  nome: string;
  cpf: string;
  comentario: string;
} & Record<HrFigureField, number>;

function monthFilter(filial: string, range: MonthRange): Filter<HrAuxRecord> {
  return {
    filial_nome: filial,
    mes_apur: { $gte: monthStartDate(range.from), $lt: monthStartDate(addMonths(range.to, 1)) },
  };
}

/**
 * The branch's rows for the month range, sorted by mes_apur then nome (spec 001 §7), at most HR_ROW_LIMIT;
 * `limited` says there were more. The CPF is masked here: the unmasked number never leaves this module.
 */
export async function listAuxRows(filial: string, range: MonthRange): Promise<{ rows: HrAuxRow[]; limited: boolean }> {
  const docs = await (await auxCollection())
    .find(monthFilter(filial, range), { projection: AUX_ROW_PROJECTION })
    .sort(AUX_ROW_ORDER)
    .limit(HR_ROW_LIMIT + 1)
    .toArray();
  return { rows: docs.slice(0, HR_ROW_LIMIT).map(toAuxRow), limited: docs.length > HR_ROW_LIMIT };
}

const AUX_ROW_PROJECTION = {
  filial_nome: 1,
  mes_apur: 1,
  nome: 1,
  cpf: 1,
  comentario: 1,
  ...Object.fromEntries(HR_FIGURE_FIELDS.map((f) => [f, 1])),
};
const AUX_ROW_ORDER = { mes_apur: 1, nome: 1, _id: 1 } as const;

/** Where a page of a branch's rows starts: after the row with this month, name and id (the grid's order). */
export type AuxRowKey = { mes_apur: Date; nome: string; id: ObjectId };

/**
 * A page of the branch's rows in the grid's order, CPF masked, from `after` on, at most `limit` plus one (the caller
 * learns whether there is more): the API's read of the grid. The branch scope is the caller's to check first.
 */
export async function pageAuxRows(
  filial: string,
  range: MonthRange,
  after: AuxRowKey | undefined,
  limit: number,
): Promise<HrAuxRow[]> {
  const filter: Filter<HrAuxRecord> = monthFilter(filial, range);
  if (after)
    filter.$or = [
      { mes_apur: { $gt: after.mes_apur } },
      { mes_apur: after.mes_apur, nome: { $gt: after.nome } },
      { mes_apur: after.mes_apur, nome: after.nome, _id: { $gt: after.id } },
    ];
  const docs = await (await auxCollection())
    .find(filter, { projection: AUX_ROW_PROJECTION })
    .sort(AUX_ROW_ORDER)
    .limit(limit + 1)
    .toArray();
  return docs.map(toAuxRow);
}

/** Rows of a branch by their ids (the CPF masked), in the grid's order; ids the branch does not have are left out. */
export async function findAuxRows(filial: string, ids: readonly string[]): Promise<HrAuxRow[]> {
  const wanted = ids.filter((id) => /^[0-9a-f]{24}$/i.test(id)).map((id) => new ObjectId(id));
  if (wanted.length === 0) return [];
  const docs = await (await auxCollection())
    .find({ _id: { $in: wanted }, filial_nome: String(filial) }, { projection: AUX_ROW_PROJECTION })
    .sort(AUX_ROW_ORDER)
    .toArray();
  return docs.map(toAuxRow);
}

/** A stored row as it leaves the model: the CPF masked here, so the unmasked number never leaves this module. */
function toAuxRow(d: WithId<HrAuxRecord>): HrAuxRow {
  const figures = Object.fromEntries(HR_FIGURE_FIELDS.map((f) => [f, typeof d[f] === "number" ? d[f] : 0])) as Record<
    HrFigureField,
    number
  >;
  return {
    id: String(d._id),
    filial_nome: d.filial_nome,
    mes_apur: monthOfDate(d.mes_apur),
    nome: d.nome,
    cpf: maskCpf(d.cpf),
    comentario: typeof d.comentario === "string" ? d.comentario : "",
    ...figures,
  };
}

export type StoreUser = { matricula: string; nome: string; cargo: string };

/** The people of a branch in the month range, by name, with their latest role (spec 001 §7 "get users of store"). */
export async function listStoreUsers(filial: string, range: MonthRange): Promise<StoreUser[]> {
  const people = await (await auxCollection())
    .aggregate<{ _id: string; nome: string; cargo: string }>([
      { $match: monthFilter(filial, range) },
      { $sort: { mes_apur: -1 } },
      { $group: { _id: "$matricula", nome: { $first: "$nome" }, cargo: { $first: "$cargo_nome" } } },
      { $sort: { nome: 1, _id: 1 } },
      { $limit: HR_ROW_LIMIT },
    ])
    .toArray();
  return people.map((p) => ({ matricula: String(p._id), nome: String(p.nome ?? ""), cargo: String(p.cargo ?? "") }));
}

// ---------------------------------------------------------------------------------------------
// Writes: always within the branch of the URL, old values checked, every change recorded

export type SaveOutcome =
  | { kind: "saved"; changed: number; conflicts: number }
  | { kind: "noChanges" }
  /** Some ids are not rows of this branch (forged, or another branch's): nothing was written. */
  | { kind: "unknownRecords" };

type ChangeSource = Pick<HrAuxRecord, "filial_nome" | "mes_apur" | "matricula" | "nome"> & { _id: ObjectId };

function changeOf(
  doc: ChangeSource,
  field: HrChangedField,
  oldValue: number | string,
  newValue: number | string,
  user: string,
  at: Date,
  via?: "excel" | "upload",
  saveId?: ObjectId,
): HrAuxChange {
  return {
    record_id: doc._id,
    filial_nome: doc.filial_nome,
    mes_apur: doc.mes_apur,
    matricula: doc.matricula,
    field,
    old: oldValue,
    new: newValue,
    user,
    at,
    ...(via ? { via } : {}),
    ...(saveId ? { save_id: saveId } : {}),
  };
}

/** A new one-time save id for a page of the grid (24 hex digits). */
export const newSaveId = (): string => new ObjectId().toHexString();

/** The one-time save id a form posted, or undefined (a form of an older page carries none: then it is not checked). */
export function readSaveId(value: unknown): ObjectId | undefined {
  return typeof value === "string" && /^[0-9a-f]{24}$/.test(value) ? new ObjectId(value) : undefined;
}

/**
 * How many of the records a save names were already changed by a save with this one-time id (the page's, issued by the
 * grid's loader): more than 0 means the same save was sent again (a replay, Back to its confirmation, a resent form).
 * Read from the change records, so it holds even after someone set the values back. Served by record_at (record_id).
 */
export async function countSpentSave(ids: readonly string[], saveId: ObjectId): Promise<number> {
  const recordIds = [...new Set(ids)].filter((id) => /^[0-9a-f]{24}$/i.test(id)).map((id) => new ObjectId(id));
  if (recordIds.length === 0) return 0;
  const spent = await (await getDb())
    .collection<HrAuxChange>(HR_AUX_CHANGES)
    .distinct("record_id", { record_id: { $in: recordIds }, save_id: saveId });
  return spent.length;
}

type FigureDiff =
  | { kind: "unknownRecords" }
  | {
      kind: "diff";
      docs: Map<string, ChangeSource & Partial<Record<HrFigureField, number>>>;
      rows: Array<[id: string, fields: Map<HrFigureField, { old: number; new: number }>]>;
    };

const FIGURE_PROJECTION = {
  filial_nome: 1,
  mes_apur: 1,
  matricula: 1,
  nome: 1,
  ...Object.fromEntries(HR_FIGURE_FIELDS.map((f) => [f, 1])),
};

/** The edits against the stored rows of the branch: per row, the fields whose value would change. */
async function diffFigures(filial: string, edits: readonly FigureEdit[]): Promise<FigureDiff> {
  const ids = [...new Set(edits.map((e) => e.id))];
  if (!ids.every((id) => /^[0-9a-f]{24}$/i.test(id))) return { kind: "unknownRecords" };
  const found = await (await auxCollection())
    .find({ _id: { $in: ids.map((id) => new ObjectId(id)) }, filial_nome: filial }, { projection: FIGURE_PROJECTION })
    .toArray();
  if (found.length !== ids.length) return { kind: "unknownRecords" };
  const docs = new Map(found.map((d) => [String(d._id), d as ChangeSource & Partial<Record<HrFigureField, number>>]));
  const perRow = new Map<string, Map<HrFigureField, { old: number; new: number }>>();
  for (const edit of edits) {
    const stored = docs.get(edit.id)?.[edit.field];
    const old = typeof stored === "number" ? stored : 0;
    const fields = perRow.get(edit.id) ?? new Map();
    if (old === edit.value) fields.delete(edit.field);
    else fields.set(edit.field, { old, new: edit.value });
    perRow.set(edit.id, fields);
  }
  return { kind: "diff", docs, rows: [...perRow].filter(([, fields]) => fields.size > 0) };
}

export type FigureChange = {
  id: string;
  nome: string;
  mes_apur: Month;
  field: HrFigureField;
  old: number;
  new: number;
};

/** What saving `edits` would change, for the confirmation (in grid order). */
export async function previewFigureChanges(
  filial: string,
  edits: readonly FigureEdit[],
): Promise<{ kind: "unknownRecords" } | { kind: "changes"; changes: FigureChange[] }> {
  const diff = await diffFigures(filial, edits);
  if (diff.kind === "unknownRecords") return diff;
  const changes = diff.rows.flatMap(([id, fields]) => {
    const doc = diff.docs.get(id)!;
    return [...fields].map(([field, change]) => ({
      id,
      nome: doc.nome,
      mes_apur: monthOfDate(doc.mes_apur),
      field,
      old: change.old,
      new: change.new,
    }));
  });
  changes.sort(
    (a, b) =>
      a.mes_apur - b.mes_apur ||
      byPtBr(a.nome, b.nome) ||
      HR_FIGURE_FIELDS.indexOf(a.field) - HR_FIGURE_FIELDS.indexOf(b.field),
  );
  return { kind: "changes", changes };
}

/**
 * Saves figures of the branch's rows. Only values that differ from the stored ones are written, each row in
 * one update whose filter also holds the old values: a row someone else changed meanwhile is left alone and
 * counted as a conflict. One bulk write for all rows, one insert for the change records.
 */
export async function saveFigures(
  filial: string,
  edits: readonly FigureEdit[],
  user: string,
  now: Date = new Date(),
  via?: "excel",
  saveId?: ObjectId,
): Promise<SaveOutcome> {
  if (edits.length === 0) return { kind: "noChanges" };
  const diff = await diffFigures(filial, edits);
  if (diff.kind === "unknownRecords") return diff;
  if (diff.rows.length === 0) return { kind: "noChanges" };
  const collection = await auxCollection();
  const operations: AnyBulkWriteOperation<HrAuxRecord>[] = diff.rows.map(([id, fields]) => {
    const filter: Record<string, unknown> = { _id: new ObjectId(id), filial_nome: filial };
    const set: Record<string, unknown> = { updatedBy: user, updatedAt: now };
    for (const [field, change] of fields) {
      filter[field] = change.old;
      set[field] = change.new;
    }
    return { updateOne: { filter: filter as Filter<HrAuxRecord>, update: { $set: set as Partial<HrAuxRecord> } } };
  });
  const result = await collection.bulkWrite(operations, { ordered: false });

  let applied = diff.rows;
  if (result.matchedCount !== operations.length) {
    // Someone changed some of these rows meanwhile: keep the rows that now hold our values.
    const after = await collection
      .find({ _id: { $in: diff.rows.map(([id]) => new ObjectId(id)) } }, { projection: FIGURE_PROJECTION })
      .toArray();
    const current = new Map(after.map((d) => [String(d._id), d]));
    applied = diff.rows.filter(([id, fields]) =>
      [...fields].every(([field, change]) => current.get(id)?.[field] === change.new),
    );
  }
  const changes = applied.flatMap(([id, fields]) =>
    [...fields].map(([field, change]) =>
      changeOf(diff.docs.get(id)!, field, change.old, change.new, user, now, via, saveId),
    ),
  );
  if (changes.length > 0) {
    await noteDataChanged([HR_AUX]);
    await (await getDb()).collection<HrAuxChange>(HR_AUX_CHANGES).insertMany(changes);
  }
  return { kind: "saved", changed: changes.length, conflicts: diff.rows.length - applied.length };
}

export type CommentOutcome = { kind: "saved" } | { kind: "noChanges" } | { kind: "notFound" } | { kind: "conflict" };

/**
 * Sets the comment of one of the branch's rows (spec 001 §7 "set comment (_id, comentario)"). With the page's one-time
 * `saveId`, a comment that id already saved (the same request sent again) is a conflict.
 */
export async function saveComment(
  filial: string,
  id: string,
  comentario: string,
  user: string,
  now: Date = new Date(),
  via?: "excel",
  saveId?: ObjectId,
): Promise<CommentOutcome> {
  if (!/^[0-9a-f]{24}$/i.test(id) || comentario.length > HR_COMMENT_MAX) return { kind: "notFound" };
  const collection = await auxCollection();
  const _id = new ObjectId(id);
  const doc = await collection.findOne(
    { _id, filial_nome: filial },
    { projection: { filial_nome: 1, mes_apur: 1, matricula: 1, nome: 1, comentario: 1 } },
  );
  if (!doc) return { kind: "notFound" };
  if (saveId && (await countSpentSave([id], saveId)) > 0) return { kind: "conflict" };
  const old = typeof doc.comentario === "string" ? doc.comentario : "";
  if (old === comentario) return { kind: "noChanges" };
  // The filter holds the comment read above (null also matches a missing one): a change made meanwhile wins.
  const seen = typeof doc.comentario === "string" ? doc.comentario : null;
  const result = await collection.updateOne(
    { _id, filial_nome: filial, comentario: seen as string },
    { $set: { comentario, updatedBy: user, updatedAt: now } },
  );
  if (result.matchedCount === 0) return { kind: "conflict" };
  await noteDataChanged([HR_AUX]);
  await (await getDb())
    .collection<HrAuxChange>(HR_AUX_CHANGES)
    .insertOne(changeOf({ ...doc, _id }, "comentario", old, comentario, user, now, via, saveId));
  return { kind: "saved" };
}

// ---------------------------------------------------------------------------------------------
// Upload template "hr_aux" (/captura/manual)

export const HR_UPLOAD_KEY = ["filial_nome", "mes_apur", "matricula"] as const;
const HR_UPLOAD_DESCRIPTIVE = [
  "marca_cod",
  "marca_desc",
  "filial_cod",
  "nome",
  "cpf",
  "cargo_cod",
  "cargo_nome",
  "datas_afastamento",
] as const;
/** Who a stored record is: no upload changes them (no screen does either); a new record takes the file's. */
const HR_UPLOAD_KEPT: ReadonlySet<string> = new Set(["nome", "cpf"]);
export type HrUploadRow = Omit<HrAuxRecord, "_id" | "updatedBy" | "updatedAt">;

/**
 * Upserts uploaded rows by (filial_nome, mes_apur, matricula). An existing row keeps its comentario when the file's is
 * empty. Every changed figure or comment of an existing row is recorded in HR_AUX_CHANGES "via upload", as an edit in
 * the screen would be; unchanged rows are left alone, so applying the same file again changes nothing.
 */
export async function applyHrUpload(rows: readonly HrUploadRow[], meta: UploadMeta): Promise<UploadCounts> {
  const { db, file, user, now } = meta;
  const collection = db.collection<HrAuxRecord>(HR_AUX);
  const projection = Object.fromEntries(
    [...HR_UPLOAD_KEY, ...HR_UPLOAD_DESCRIPTIVE, ...HR_FIGURE_FIELDS, "comentario"].map((f) => [f, 1 as const]),
  );
  const existing = await existingByKey(collection, HR_UPLOAD_KEY, rows, projection, meta);
  const inserts: Document[] = [];
  const updates: AnyBulkWriteOperation<HrAuxRecord>[] = [];
  const changes: HrAuxChange[] = [];
  let unchanged = 0;
  for (const row of rows) {
    const key = keyText(row, HR_UPLOAD_KEY);
    const found = existing.get(key);
    if (!found) {
      inserts.push({ _id: uploadedRowId(file, key), ...row, updatedBy: user, updatedAt: now });
      continue;
    }
    const set: Record<string, unknown> = {};
    for (const field of HR_UPLOAD_DESCRIPTIVE)
      if (!HR_UPLOAD_KEPT.has(field) && found[field] !== row[field]) set[field] = row[field];
    const source = {
      _id: found._id,
      filial_nome: found.filial_nome,
      mes_apur: found.mes_apur,
      matricula: found.matricula,
      nome: found.nome,
    };
    for (const field of HR_FIGURE_FIELDS) {
      const old = typeof found[field] === "number" ? found[field] : 0;
      if (old !== row[field]) {
        set[field] = row[field];
        changes.push(changeOf(source, field, old, row[field], user, now, "upload"));
      }
    }
    const oldComment = typeof found.comentario === "string" ? found.comentario : "";
    if (row.comentario !== "" && row.comentario !== oldComment) {
      set.comentario = row.comentario;
      changes.push(changeOf(source, "comentario", oldComment, row.comentario, user, now, "upload"));
    }
    if (Object.keys(set).length === 0) {
      unchanged++;
      continue;
    }
    updates.push({
      updateOne: {
        filter: { _id: found._id },
        update: { $set: { ...set, updatedBy: user, updatedAt: now } as Partial<HrAuxRecord> },
      },
    });
  }
  const inserted = await insertIgnoringDuplicates(db.collection(HR_AUX), inserts);
  if (updates.length > 0) await collection.bulkWrite(updates, { ordered: false });
  if (changes.length > 0) await db.collection<HrAuxChange>(HR_AUX_CHANGES).insertMany(changes, { ordered: false });
  if (inserted > 0 || updates.length > 0) await noteDataChanged([HR_AUX], db);
  return { inserted, updated: updates.length, unchanged, removed: 0 };
}
