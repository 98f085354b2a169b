import { ObjectId, type Document } from "mongodb";
import { getDb } from "~/db.server";
import { messages } from "~/messages";
import {
  isMasterDataCollectionName,
  MASTER_DATA_COLLECTIONS,
  type MasterDataCollectionName,
  type MasterDataCollectionRecord,
  type MasterDataField,
} from "~/models/master-data.server";

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

const pad = (n: number) => String(n).padStart(2, "0");

/** A stored value as table text: dates as DD/MM/yyyy (with the time when there is one, UTC), ids as hex. */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return "";
    const date = `${pad(value.getUTCDate())}/${pad(value.getUTCMonth() + 1)}/${value.getUTCFullYear()}`;
    const h = value.getUTCHours();
    const m = value.getUTCMinutes();
    const s = value.getUTCSeconds();
    return h === 0 && m === 0 && s === 0 ? date : `${date} ${pad(h)}:${pad(m)}:${pad(s)}`;
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
export { pageNumber as pageParam } from "~/domain/pagination";

/**
 * One page of a master-data base: 20 rows with skip = (page − 1) × 20, and the matching count, read
 * together. The name is checked against the allowed list before anything is read: any other name is a
 * 404 Response. `columns` (keys from the catalogue or the screen's constants, never from the request)
 * limit what is read.
 */
export async function getBasePage(collectionName: string, page: number, columns?: readonly MasterDataColumn[]): Promise<BasePage> {
  if (!isMasterDataCollectionName(collectionName)) notFound();
  const safePage = Number.isSafeInteger(page) && page >= 1 ? page : 1;
  const skip = (safePage - 1) * MASTER_DATA_PAGE_SIZE;
  const projection: Document | undefined = columns
    ? Object.fromEntries(columns.filter((c) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(c.key)).map((c) => [c.key, 1]))
    : undefined;
  const db = await getDb();
  const collection = db.collection(collectionName);
  const [documents, count] = await Promise.all([
    collection
      .find({}, projection ? { projection } : {})
      .sort({ _id: 1 })
      .skip(skip)
      .limit(MASTER_DATA_PAGE_SIZE)
      .toArray(),
    collection.countDocuments({}),
  ]);
  const rows = documents.map((doc, index) => {
    const { _id, ...rest } = doc;
    const cells: Record<string, string> = {};
    for (const [key, value] of Object.entries(rest)) cells[key] = formatCell(value);
    return { id: _id === undefined ? `${collectionName}-${skip + index}` : formatCell(_id), cells };
  });
  return { collection: collectionName, rows, count, page: safePage, pageSize: MASTER_DATA_PAGE_SIZE };
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

const col = (key: string, header = key): MasterDataColumn => ({ key, header });

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
  col("data_validade_sku", messages.globalForecastEndDate),
  col("urlPath"),
] as const;
export const QUANTITY_NOK_COLUMNS = [col("sku"), col("_lineNumber"), col("urlPath"), col("timeStamp"), col("Error")] as const;
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
export type MasterDataTab = { id: string; label: string; collection: MasterDataCollectionName; columns: readonly MasterDataColumn[] };

export const CHANNEL_TABS = [
  { id: "channel", label: messages.masterDataTabs.channel, collection: "channel", columns: CHANNEL_COLUMNS },
  { id: "channel_nok", label: messages.masterDataTabs.channelNok, collection: "channel_nok", columns: CHANNEL_NOK_COLUMNS },
] as const satisfies readonly MasterDataTab[];

export type PlanningSection = { id: string; label: string; tabs: readonly MasterDataTab[] };

/**
 * /repo/master-data/planejamento: the top tab chooses the subject, the inner tabs its valid and
 * discarded bases. Product → Quantity / Quantity NOK (the planning quantity master is the product
 * master), Channel → Channel / Channel NOK, Planning → Spend / Spend NOK.
 */
export const PLANNING_SECTIONS = [
  {
    id: "product",
    label: messages.masterDataTabs.product,
    tabs: [
      { id: "quantity", label: messages.masterDataTabs.quantity, collection: "product_master", columns: QUANTITY_COLUMNS },
      { id: "quantity_nok", label: messages.masterDataTabs.quantityNok, collection: "product_master_nok", columns: QUANTITY_NOK_COLUMNS },
    ],
  },
  { id: "channel", label: messages.masterDataTabs.channel, tabs: CHANNEL_TABS },
  {
    id: "planning",
    label: messages.masterDataTabs.planning,
    tabs: [
      { id: "spend", label: messages.masterDataTabs.spend, collection: "planning_spend", columns: SPEND_COLUMNS },
      { id: "spend_nok", label: messages.masterDataTabs.spendNok, collection: "planning_spend_nok", columns: SPEND_NOK_COLUMNS },
    ],
  },
] as const satisfies readonly PlanningSection[];

/** The tab of a fixed list whose id is `id`, or the list's first (the lists above are never empty). */
export function pickTab<T extends { id: string }>(tabs: readonly T[], id: string | undefined): T {
  return tabs.find((t) => t.id === id) ?? tabs[0];
}
