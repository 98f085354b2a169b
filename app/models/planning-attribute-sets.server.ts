import type { AnyBulkWriteOperation, Db, Filter } from "mongodb";
import { ATTRIBUTES, type AttributeField, chosenAttributes, type PlanningFilter } from "~/models/planning.fields";
import type { IndexDeclaration } from "./indexes";
import {
  FEW_VALUED_ATTRIBUTES,
  PAGED_ATTRIBUTES,
  PLANNING_QUANTITY,
  type PlanningQuantityRow,
} from "./planning.server";

/**
 * The SKU attribute sets of the plan: one document per SKU of planning_quantity, holding the attributes its rows
 * carry (marca, category_sku, hero, categoria_principal_sku, abcd, sub_categoria_sku, plc_localsku). A filter by
 * attributes first reads here which SKUs match (a collection of one document per SKU, one index per attribute); when
 * they are few, the planning query names them (`sku $in`) and the page and the count read those SKUs' rows through
 * the sku indexes, instead of walking every row of the most selective attribute to find the few that match them all
 * (docs/decisions.md "Planning").
 *
 * `mixed` is set once the SKU's rows were seen with more than one set of attributes (an upload that changed some
 * rows' attributes): such a SKU is always a candidate, and the query then keeps every attribute condition. A SKU
 * that is not mixed has its attributes on every row, so naming it replaces the conditions exactly. A document may
 * outlive its rows (a deleted row): naming a SKU without rows costs a seek, never a wrong row. What must never
 * happen is a row whose SKU is missing here or whose attributes differ while `mixed` is false: every writer of
 * planning_quantity records what it writes (applyPlanningUpload, the seed, the test fixtures), and a load made
 * outside the portal is followed by `npm run portal -- db-indexes`, which rebuilds this collection from the rows.
 */
export const PLANNING_ATTRIBUTE_SETS = "planning_attribute_sets";

export type PlanningAttributeSet = { _id: string; mixed: boolean } & Record<AttributeField, string>;

/**
 * The values of each few-valued attribute (FEW_VALUED_ATTRIBUTES) that the plan's rows carry, null for a row without
 * one: a document per attribute, `{ _id: "abcd", values: ["A", "B", …] }`. A filter by those attributes alone names
 * every value of the ones not chosen (models/planning-queries.server.ts), which must miss none: the writers record
 * what they write here first, with the sets, and a rebuild computes it from the rows. A value whose rows were all
 * deleted stays; naming it costs a range that holds nothing. An attribute without its document is read from the rows.
 */
export const PLANNING_ATTRIBUTE_VALUES = "planning_attribute_values";

export type PlanningAttributeValues = { _id: AttributeField; values: unknown[] };

/** The few-valued attributes' values seen so far (a missing one as null), as PLANNING_ATTRIBUTE_VALUES documents. */
class FewValues {
  private readonly seen = new Map(FEW_VALUED_ATTRIBUTES.map((field) => [field, new Set<unknown>()]));

  add(field: AttributeField, value: unknown): void {
    this.seen.get(field)!.add(value ?? null);
  }

  addRow(row: Partial<Record<AttributeField, unknown>>): void {
    for (const field of FEW_VALUED_ATTRIBUTES) this.add(field, row[field]);
  }

  documents(): PlanningAttributeValues[] {
    return FEW_VALUED_ATTRIBUTES.map((field) => ({ _id: field, values: [...this.seen.get(field)!] }));
  }
}

/** The recorded values of the few-valued attributes, by attribute (those never recorded are missing). */
export async function recordedAttributeValues(db: Db): Promise<Map<AttributeField, unknown[]>> {
  const docs = await db.collection<PlanningAttributeValues>(PLANNING_ATTRIBUTE_VALUES).find({}).toArray();
  return new Map(docs.map((d) => [d._id, d.values]));
}

export const attributeSetIndexes: IndexDeclaration[] = [
  ...ATTRIBUTES.map((a) => ({
    collection: PLANNING_ATTRIBUTE_SETS,
    key: { [a.field]: 1 },
    options: { name: a.field },
  })),
  { collection: PLANNING_ATTRIBUTE_SETS, key: { mixed: 1 }, options: { name: "mixed" } },
];

/** At most this many SKUs are named in a planning query; a filter matching more reads the attribute indexes as before. */
export const SKU_SET_LIMIT = 1_000;

type AttributeRow = Pick<PlanningQuantityRow, "sku" | AttributeField>;

function attributesOf(row: AttributeRow): Record<AttributeField, string> {
  return Object.fromEntries(ATTRIBUTES.map((a) => [a.field, row[a.field]])) as Record<AttributeField, string>;
}

/**
 * Records the attribute sets of rows written to planning_quantity: a new SKU gets its set; a known SKU seen with
 * other attributes becomes mixed. Two ordered operations per SKU, so concurrent writers agree.
 */
export async function recordAttributeSets(db: Db, rows: Iterable<AttributeRow>): Promise<void> {
  const bySku = new Map<string, Record<AttributeField, string>[]>();
  for (const row of rows) {
    const attributes = attributesOf(row);
    const seen = bySku.get(row.sku);
    if (!seen) bySku.set(row.sku, [attributes]);
    else if (!seen.some((s) => ATTRIBUTES.every((a) => s[a.field] === attributes[a.field]))) seen.push(attributes);
  }
  if (bySku.size === 0) return;
  const seen = new FewValues();
  for (const sets of bySku.values()) for (const attributes of sets) seen.addRow(attributes);
  await db.collection<PlanningAttributeValues>(PLANNING_ATTRIBUTE_VALUES).bulkWrite(
    seen.documents().map((doc) => ({
      updateOne: { filter: { _id: doc._id }, update: { $addToSet: { values: { $each: doc.values } } }, upsert: true },
    })),
    { ordered: false },
  );
  const ops: AnyBulkWriteOperation<PlanningAttributeSet>[] = [];
  for (const [sku, sets] of bySku) {
    ops.push({
      updateOne: {
        filter: { _id: sku },
        update: { $setOnInsert: { ...sets[0], mixed: sets.length > 1 } },
        upsert: true,
      },
    });
    for (const attributes of sets) {
      const differs = ATTRIBUTES.map((a) => ({
        [a.field]: { $ne: attributes[a.field] },
      })) as Filter<PlanningAttributeSet>[];
      ops.push({ updateOne: { filter: { _id: sku, mixed: false, $or: differs }, update: { $set: { mixed: true } } } });
    }
  }
  const sets = db.collection<PlanningAttributeSet>(PLANNING_ATTRIBUTE_SETS);
  try {
    await sets.bulkWrite(ops, { ordered: true });
  } catch (error) {
    // Two writers inserting the same new SKU at once: one upsert lost the race; the second pass finds it.
    if ((error as { code?: number }).code !== 11000) throw error;
    await sets.bulkWrite(ops, { ordered: true });
  }
}

/** Rebuilds the collection from the rows (after a load made outside the portal): one pass over planning_quantity. */
export async function rebuildAttributeSets(db: Db): Promise<number> {
  const group: Record<string, unknown> = { _id: "$sku" };
  for (const a of ATTRIBUTES) group[a.field] = { $addToSet: `$${a.field}` };
  // The few-valued attributes' values again, a row without one as null ($addToSet leaves a missing field out).
  for (const field of FEW_VALUED_ATTRIBUTES) group[`few_${field}`] = { $addToSet: { $ifNull: [`$${field}`, null] } };
  const sets = db.collection<PlanningAttributeSet>(PLANNING_ATTRIBUTE_SETS);
  await sets.deleteMany({});
  let batch: PlanningAttributeSet[] = [];
  let total = 0;
  const seen = new FewValues();
  const cursor = db
    .collection(PLANNING_QUANTITY)
    .aggregate<{ _id: string } & Record<AttributeField, string[]>>([{ $group: group }], { allowDiskUse: true });
  for await (const doc of cursor) {
    for (const field of FEW_VALUED_ATTRIBUTES)
      for (const v of (doc as unknown as Record<string, unknown[]>)[`few_${field}`]) seen.add(field, v);
    if (typeof doc._id !== "string") continue;
    const mixed = ATTRIBUTES.some((a) => doc[a.field].length !== 1);
    batch.push({
      _id: doc._id,
      mixed,
      ...(Object.fromEntries(ATTRIBUTES.map((a) => [a.field, doc[a.field][0] ?? null])) as Record<
        AttributeField,
        string
      >),
    });
    if (batch.length === 5_000) {
      await sets.insertMany(batch, { ordered: false });
      total += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await sets.insertMany(batch, { ordered: false });
  const values = db.collection<PlanningAttributeValues>(PLANNING_ATTRIBUTE_VALUES);
  await values.deleteMany({});
  await values.insertMany(seen.documents());
  return total + batch.length;
}

/** Builds the collection when the plan has rows and it has none (a data directory of an older release). */
export async function ensureAttributeSets(db: Db): Promise<void> {
  // The sets first: a command naming planning_quantity waits for the embedded server to load it, the largest.
  if ((await db.collection(PLANNING_ATTRIBUTE_SETS).estimatedDocumentCount()) > 0) return;
  if ((await db.collection(PLANNING_QUANTITY).estimatedDocumentCount()) > 0) await rebuildAttributeSets(db);
}

/** Collects the attribute sets of rows as they stream past (the seed), for one insert at the end. */
export class AttributeSetCollector {
  private readonly bySku = new Map<string, PlanningAttributeSet>();
  private readonly seen = new FewValues();

  *tap<T extends AttributeRow>(rows: Iterable<T>): Generator<T> {
    for (const row of rows) {
      this.seen.addRow(row);
      const known = this.bySku.get(row.sku);
      if (!known) this.bySku.set(row.sku, { _id: row.sku, mixed: false, ...attributesOf(row) });
      else if (!known.mixed && ATTRIBUTES.some((a) => known[a.field] !== row[a.field])) known.mixed = true;
      yield row;
    }
  }

  documents(): PlanningAttributeSet[] {
    return [...this.bySku.values()];
  }

  /** The documents of PLANNING_ATTRIBUTE_VALUES. */
  values(): PlanningAttributeValues[] {
    return this.seen.documents();
  }
}

/**
 * The SKUs a filter's attributes select, when that narrows the planning query:
 * - "none": no SKU has these attributes (the result is empty without reading the rows);
 * - "skus": at most SKU_SET_LIMIT SKUs; `exact` when none is mixed (the SKUs replace the attribute conditions);
 * - undefined: no attribute chosen, SKUs named by the filter, one attribute with its own ordered index, or too many
 *   SKUs to name.
 */
export type SkuSelection = { kind: "none" } | { kind: "skus"; skus: string[]; exact: boolean };

export async function skusOfAttributes(db: Db, filter: PlanningFilter): Promise<SkuSelection | undefined> {
  const chosen = chosenAttributes(filter);
  if (chosen.length === 0 || filter.sku.length > 0) return undefined;
  // Alone, an attribute with its own index in the screen's order reads exactly the page and counts exactly.
  if (chosen.length === 1 && PAGED_ATTRIBUTES.includes(chosen[0].field)) return undefined;
  const query: Filter<PlanningAttributeSet> = {};
  for (const a of chosen) (query as Record<string, unknown>)[a.field] = { $in: [...filter[a.param]] };
  const sets = db.collection<PlanningAttributeSet>(PLANNING_ATTRIBUTE_SETS);
  // The matching SKUs and every mixed one, in one read (each branch through its own indexes).
  const candidates = await sets
    .find({ $or: [query, { mixed: true }] }, { projection: { _id: 1, mixed: 1 } })
    .limit(SKU_SET_LIMIT + 1)
    .toArray();
  if (candidates.length > SKU_SET_LIMIT) return undefined;
  if (candidates.length === 0) {
    // Never built (rows loaded by an older release or outside the portal, before `db:indexes`): the rows decide alone.
    return (await sets.estimatedDocumentCount()) === 0 ? undefined : { kind: "none" };
  }
  return { kind: "skus", skus: candidates.map((s) => s._id), exact: !candidates.some((s) => s.mixed) };
}
