import { type Document, type Filter, ObjectId, type Sort } from "mongodb";
import { z } from "zod";
import { getDb } from "~/db.server";
import { masterDataTexts } from "~/messages";
import { FILE_PARAM } from "~/models/master-data.fields";
import {
  CHANNEL_NOK,
  isMasterDataCollectionName,
  MASTER_DATA_COLLECTIONS,
  type MasterDataCollectionName,
  type MasterDataCollectionRecord,
  type MasterDataField,
  PLANNING_SPEND_NOK,
  PRODUCT_MASTER_NOK,
} from "~/models/master-data.server";
import { formatCalendarDate, formatDateTime } from "~/shared/dates";
import { pageNumber, readPageOrLast } from "~/shared/pagination";
import { countMatching } from "./counting.server";

/** Read queries of the master-data screens (spec 000 §7 "get collections, get base, get base count"). */

/** Master-data table pages hold 20 rows (spec 000 §9). */
export const MASTER_DATA_PAGE_SIZE = 20;

export type MasterDataCollection = {
  collection_name: MasterDataCollectionName;
  label_name: string;
  collection_ok: 0 | 1;
  fields: MasterDataField[];
  order: number;
};

/** A column as the table shows it. */
export type MasterDataColumn = { key: string; header: string };

/** A row ready for the browser: the record id and each cell as display text. */
export type MasterDataRow = { id: string; cells: Record<string, string> };

export type BasePage = {
  collection: MasterDataCollectionName;
  rows: MasterDataRow[];
  count: number;
  page: number;
  pageSize: number;
};

function notFound(): never {
  throw new Response(null, { status: 404 });
}

/**
 * The catalogue of master-data collections, in dropdown order. Entries that name a collection outside
 * the allowed list are left out, so the screen can never offer one.
 */
export async function listMasterDataCollections(): Promise<MasterDataCollection[]> {
  const db = await getDb();
  const records = await db
    .collection<MasterDataCollectionRecord>(MASTER_DATA_COLLECTIONS)
    .find({}, { projection: { _id: 0 } })
    .sort({ order: 1, collection_name: 1 })
    .toArray();
  return records
    .filter((r) => isMasterDataCollectionName(r.collection_name))
    .map((r) => ({
      collection_name: r.collection_name,
      label_name: r.label_name,
      collection_ok: Number(r.collection_ok) === 1 ? 1 : 0,
      fields: Array.isArray(r.fields) ? r.fields : [],
      order: r.order,
    }));
}

/** The `fields` of a catalogue entry as columns; malformed entries (not one string-valued key) are skipped. */
export function columnsOf(fields: readonly MasterDataField[]): MasterDataColumn[] {
  const columns: MasterDataColumn[] = [];
  for (const field of fields) {
    if (!field || typeof field !== "object") continue;
    const entries = Object.entries(field);
    if (entries.length !== 1) continue;
    const [key, header] = entries[0];
    if (typeof header !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) continue;
    columns.push({ key, header });
  }
  return columns;
}

/**
 * A stored value as table and export text: a moment as the portal's date and time (formatDateTime); a date stored
 * as midnight UTC (a validity date) is a calendar day, DD/MM/yyyy as stored; ids as hex.
 */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return "";
    return value.getTime() % 86_400_000 === 0 ? formatCalendarDate(value) : formatDateTime(value);
  }
  if (value instanceof ObjectId) return value.toHexString();
  if (typeof value === "object") {
    if (Array.isArray(value)) return value.map(formatCell).join(", ");
    const bsonType = (value as { _bsontype?: string })._bsontype;
    if (bsonType) return String(value);
    return JSON.stringify(value);
  }
  return String(value);
}

/** The `page` search parameter of the master-data screens (the one rule of every paged list). */
export { FILE_PARAM, pageNumber as pageParam };

/** The `file` search parameter: the urlPath a base is narrowed to; empty or unreadable is no filter. */
export const fileParam = z
  .string()
  .trim()
  .max(1024)
  .optional()
  .catch(undefined)
  .transform((file) => file || undefined);

/**
 * What a master-data table may be narrowed to: the rows of one imported file (their `urlPath`), or of any of
 * several paths (a name the file was uploaded under resolves to its paths).
 */
export type BaseFilter = { file?: string; files?: readonly string[] };

/**
 * The query and order of a base narrowed by `filter`: the file's rows in line order, or the whole base newest first.
 * Paths are strings compared by equality: a value can never be an operator.
 */
function baseQuery(filter: BaseFilter): { query: Filter<Document>; sort: Sort } {
  const paths = (filter.files ?? (typeof filter.file === "string" && filter.file !== "" ? [filter.file] : [])).filter(
    (p) => typeof p === "string" && p !== "",
  );
  const query: Filter<Document> =
    paths.length === 1 ? { urlPath: paths[0] } : paths.length > 1 ? { urlPath: { $in: [...new Set(paths)] } } : {};
  return { query, sort: "urlPath" in query ? { _id: 1 } : { _id: -1 } };
}

/** Projection of the given column keys (keys from the catalogue or the screen's constants, re-checked here). */
function projectionOf(keys: readonly string[]): Document {
  return Object.fromEntries(keys.filter((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k)).map((k) => [k, 1]));
}

export const MASTER_DATA_EXPORT_BATCH = 1_000;

/** A stored master-data row as an export reads it: its id and the requested fields, typed as stored. */
export type StoredMasterDataRow = { _id: ObjectId } & Record<string, unknown>;

/**
 * Every row of a base narrowed by `filter`, in the screen's order, in batches from one cursor (an export streams
 * them; nothing holds the whole base). `keys` limit what is read. The name is checked against the allowed list.
 */
export async function* baseRowBatches(
  collectionName: string,
  keys: readonly string[],
  filter: BaseFilter = {},
): AsyncGenerator<StoredMasterDataRow[]> {
  if (!isMasterDataCollectionName(collectionName)) notFound();
  const { query, sort } = baseQuery(filter);
  const cursor = (await getDb())
    .collection(collectionName)
    .find(query, { projection: projectionOf(keys), batchSize: MASTER_DATA_EXPORT_BATCH })
    .sort(sort);
  let batch: StoredMasterDataRow[] = [];
  try {
    for await (const row of cursor) {
      if (!(row._id instanceof ObjectId)) continue; // rows without an ObjectId cannot be sent back
      batch.push(row as StoredMasterDataRow);
      if (batch.length === MASTER_DATA_EXPORT_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    await cursor.close();
  }
}

/** How many rows an export of a base narrowed by `filter` holds (the audit trail's row count): an indexed count. */
export async function countBaseRows(collectionName: string, filter: BaseFilter = {}): Promise<number> {
  if (!isMasterDataCollectionName(collectionName)) notFound();
  const { query } = baseQuery(filter);
  const collection = (await getDb()).collection(collectionName);
  // The whole base: the collection's own count, no scan.
  return Object.keys(query).length === 0 ? collection.estimatedDocumentCount() : collection.countDocuments(query);
}

/** The rows of a base narrowed by `filter` among `ids` (what an edited export is checked against), read in chunks. */
export async function baseRowsByIds(
  collectionName: string,
  keys: readonly string[],
  ids: readonly ObjectId[],
  filter: BaseFilter = {},
): Promise<StoredMasterDataRow[]> {
  if (!isMasterDataCollectionName(collectionName)) notFound();
  const { query } = baseQuery(filter);
  const collection = (await getDb()).collection(collectionName);
  const found: StoredMasterDataRow[] = [];
  for (let i = 0; i < ids.length; i += MASTER_DATA_EXPORT_BATCH) {
    const chunk = ids.slice(i, i + MASTER_DATA_EXPORT_BATCH);
    const rows = await collection.find({ ...query, _id: { $in: chunk } }, { projection: projectionOf(keys) }).toArray();
    found.push(...(rows as StoredMasterDataRow[]));
  }
  return found;
}

/**
 * One page of a master-data base: 20 rows with skip = (page − 1) × 20, and the matching count, read together;
 * a page past the end is the last page. Newest first (by `_id`, whose leading bytes are the import's or the
 * seed's time), so the rows of the file just uploaded are on page 1; narrowed to one file (`filter.file`, its
 * urlPath) the rows follow the file's line order. The name is checked against the allowed list before anything
 * is read: any other name is a 404 Response. `columns` (keys from the catalogue or the screen's constants, never
 * from the request) limit what is read. Served by the `_id` index and by `urlPath_id` (master-data.server.ts).
 */
export async function getBasePage(
  collectionName: string,
  page: number,
  columns?: readonly MasterDataColumn[],
  filter: BaseFilter = {},
): Promise<BasePage> {
  if (!isMasterDataCollectionName(collectionName)) notFound();
  const requested = Number.isSafeInteger(page) && page >= 1 ? page : 1;
  const projection: Document | undefined = columns
    ? Object.fromEntries(columns.filter((c) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(c.key)).map((c) => [c.key, 1]))
    : undefined;
  const { query, sort } = baseQuery(filter);
  const db = await getDb();
  const collection = db.collection(collectionName);
  const readPage = (n: number) =>
    collection
      .find(query, projection ? { projection } : {})
      .sort(sort)
      .skip((n - 1) * MASTER_DATA_PAGE_SIZE)
      .limit(MASTER_DATA_PAGE_SIZE)
      .toArray();
  const {
    rows: documents,
    total,
    page: shown,
  } = await readPageOrLast(requested, MASTER_DATA_PAGE_SIZE, readPage, () => countMatching(collection, query));
  const skip = (shown - 1) * MASTER_DATA_PAGE_SIZE;
  const rows = documents.map((doc, index) => {
    const { _id, ...rest } = doc;
    const cells: Record<string, string> = {};
    for (const [key, value] of Object.entries(rest)) cells[key] = formatCell(value);
    return { id: _id === undefined ? `${collectionName}-${skip + index}` : formatCell(_id), cells };
  });
  return { collection: collectionName, rows, count: total, page: shown, pageSize: MASTER_DATA_PAGE_SIZE };
}

/** The discarded (NOK) bases the importer writes rejected rows to. */
const NOK_BASES = [PRODUCT_MASTER_NOK, CHANNEL_NOK, PLANNING_SPEND_NOK] as const;

/**
 * For the files of a job-list page (their urlPaths), the NOK base holding rejected rows of each: one indexed
 * `distinct` per NOK base over at most a page of paths.
 */
export async function nokBasesOfFiles(urlPaths: readonly string[]): Promise<Map<string, MasterDataCollectionName>> {
  const found = new Map<string, MasterDataCollectionName>();
  if (urlPaths.length === 0) return found;
  const db = await getDb();
  const lists = await Promise.all(
    NOK_BASES.map((name) => db.collection(name).distinct("urlPath", { urlPath: { $in: [...urlPaths] } })),
  );
  NOK_BASES.forEach((name, i) => {
    for (const path of lists[i]) if (typeof path === "string" && !found.has(path)) found.set(path, name);
  });
  return found;
}

/**
 * The catalogue entry for a name taken from a URL. A name outside the allowed list, or one the catalogue
 * does not hold, is a 404 Response; nothing is read from the named collection.
 */
export function findCatalogueEntry(catalogue: readonly MasterDataCollection[], name: string): MasterDataCollection {
  if (!isMasterDataCollectionName(name)) notFound();
  return catalogue.find((c) => c.collection_name === name) ?? notFound();
}

// ---------------------------------------------------------------------------------------------
// The fixed tables of /repo/master-data/canal and /repo/master-data/planejamento (spec 000 §3)

/** A fixed table's column: the field's label (the field name stays as the header's tooltip). */
const col = (key: keyof typeof masterDataTexts.masterDataFields): MasterDataColumn => ({
  key,
  header: masterDataTexts.masterDataFields[key],
});

export const CHANNEL_COLUMNS = [col("cnpj"), col("description"), col("channel_siop"), col("urlPath")] as const;
export const CHANNEL_NOK_COLUMNS = [col("urlPath"), col("creationDate"), col("Error")] as const;
export const QUANTITY_COLUMNS = [
  col("sku"),
  col("material_description"),
  col("marca"),
  col("category_sku"),
  col("categoria_principal_sku"),
  col("sub_categoria_sku"),
  col("hero"),
  col("abcd"),
  col("plc_local"),
  col("plc_global"),
  col("data_validade_sku"),
  col("urlPath"),
] as const;
export const QUANTITY_NOK_COLUMNS = [
  col("sku"),
  col("_lineNumber"),
  col("urlPath"),
  col("timeStamp"),
  col("Error"),
] as const;
export const SPEND_COLUMNS = [col("channel"), col("marca"), col("yearMonthDay"), col("urlPath")] as const;
/**
 * Spec 000 §3 gives discarded planning rows as sku, _lineNumber, urlPath, timeStamp, Error. A spend row has
 * no sku: what identifies it is channel, marca and the version (yearMonthDay), so those take the sku's
 * place and the rest follows the spec (see the dashboards helper's decisions).
 */
export const SPEND_NOK_COLUMNS = [
  col("channel"),
  col("marca"),
  col("yearMonthDay"),
  col("_lineNumber"),
  col("urlPath"),
  col("timeStamp"),
  col("Error"),
] as const;

/** One tab of a fixed master-data table: the collection it reads comes from here, never from the URL. */
export type MasterDataTab = {
  id: string;
  label: string;
  collection: MasterDataCollectionName;
  columns: readonly MasterDataColumn[];
};

export const CHANNEL_TABS = [
  { id: "channel", label: masterDataTexts.masterDataTabs.channel, collection: "channel", columns: CHANNEL_COLUMNS },
  {
    id: "channel_nok",
    label: masterDataTexts.masterDataTabs.channelNok,
    collection: "channel_nok",
    columns: CHANNEL_NOK_COLUMNS,
  },
] as const satisfies readonly MasterDataTab[];

/**
 * /repo/master-data/planejamento (spec 000 §2): the inner tabs Quantity, Quantity NOK, Spend and Spend NOK — the
 * planning quantity master (the product master, spec 000 §3) and the spend bases, each with its discarded rows.
 * (The top tabs Product, Channel, Planning are the three master-data screens: MasterDataSectionsNav.)
 */
export const PLANNING_TABS = [
  {
    id: "quantity",
    label: masterDataTexts.masterDataTabs.quantity,
    collection: "product_master",
    columns: QUANTITY_COLUMNS,
  },
  {
    id: "quantity_nok",
    label: masterDataTexts.masterDataTabs.quantityNok,
    collection: "product_master_nok",
    columns: QUANTITY_NOK_COLUMNS,
  },
  { id: "spend", label: masterDataTexts.masterDataTabs.spend, collection: "planning_spend", columns: SPEND_COLUMNS },
  {
    id: "spend_nok",
    label: masterDataTexts.masterDataTabs.spendNok,
    collection: "planning_spend_nok",
    columns: SPEND_NOK_COLUMNS,
  },
] as const satisfies readonly MasterDataTab[];

/**
 * The URL state of a screen with fixed tabs: `tab` (an unknown one is the first), `page` (a bad one is 1) and
 * `file` (the urlPath the table is narrowed to).
 */
export function tabbedTableParams<T extends MasterDataTab>(tabs: readonly T[], url: URL) {
  const schema = z.object({
    tab: z
      .string()
      .optional()
      .catch(undefined)
      .transform((id) => pickTab(tabs, id)),
    page: pageNumber,
    file: fileParam,
  });
  return schema.parse({
    tab: url.searchParams.get("tab") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
    file: url.searchParams.get(FILE_PARAM) ?? undefined,
  });
}

/** The tab of a fixed list whose id is `id`, or the list's first (the lists above are never empty). */
export function pickTab<T extends { id: string }>(tabs: readonly T[], id: string | undefined): T {
  return tabs.find((t) => t.id === id) ?? tabs[0];
}
