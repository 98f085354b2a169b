import type { ObjectId } from "mongodb";
import type { IndexDeclaration } from "./indexes";

/**
 * Master data (spec 000 §3): the catalogue of master-data collections and the OK / NOK bases
 * themselves. Every row carries `sourceFileId`, the `files` _id that imported it (null for seeded
 * rows), so a re-import of the same file can replace its rows.
 */

export const MASTER_DATA_COLLECTIONS = "master_data_collections";

export const PRODUCT_MASTER = "product_master";
export const PRODUCT_MASTER_NOK = "product_master_nok";
export const CHANNEL = "channel";
export const CHANNEL_NOK = "channel_nok";
export const PLANNING_SPEND = "planning_spend";
export const PLANNING_SPEND_NOK = "planning_spend_nok";

/** The only collections a master-data screen may read; anything else is rejected. */
export const MASTER_DATA_COLLECTION_NAMES = [
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
  CHANNEL,
  CHANNEL_NOK,
  PLANNING_SPEND,
  PLANNING_SPEND_NOK,
] as const;
export type MasterDataCollectionName = (typeof MASTER_DATA_COLLECTION_NAMES)[number];

export function isMasterDataCollectionName(name: unknown): name is MasterDataCollectionName {
  return typeof name === "string" && (MASTER_DATA_COLLECTION_NAMES as readonly string[]).includes(name);
}

/** One column of a master-data table: `{ fieldKey: "Header label" }`. */
export type MasterDataField = Record<string, string>;

export type MasterDataCollectionRecord = {
  _id?: ObjectId;
  collection_name: MasterDataCollectionName;
  label_name: string;
  /** 1 = valid base, 0 = discarded (NOK) base. */
  collection_ok: 0 | 1;
  fields: MasterDataField[];
  /** Position in the collection dropdown. */
  order: number;
};

type ImportedRow = {
  _id?: ObjectId;
  urlPath: string;
  sourceFileId: ObjectId | null;
  /** The last change made through the portal (an edited Excel export sent back); absent until then. */
  updatedBy?: string;
  updatedAt?: Date;
};

/**
 * One changed field of a master-data row (an edited Excel export sent back through its screen): which base and row,
 * the old and the new value, who and when.
 */
export const MASTER_DATA_HISTORY = "master_data_history";

/** The valid bases whose rows an edited export may change: they have an import template (the same rules apply). */
export const EDITABLE_MASTER_DATA = [PRODUCT_MASTER, CHANNEL, PLANNING_SPEND] as const;
export type EditableMasterData = (typeof EDITABLE_MASTER_DATA)[number];

/**
 * Each base's import template columns, in the template's order (`uploads-and-jobs/import/master-data-templates.ts`):
 * the fields an edit may set.
 */
export const MASTER_DATA_EDITABLE_FIELDS: Record<EditableMasterData, readonly string[]> = {
  [PRODUCT_MASTER]: [
    "sku",
    "material_description",
    "marca",
    "category_sku",
    "categoria_principal_sku",
    "sub_categoria_sku",
    "hero",
    "abcd",
    "plc_local",
    "plc_global",
    "data_validade_sku",
  ],
  [CHANNEL]: ["cnpj", "description", "channel_siop"],
  [PLANNING_SPEND]: ["channel", "marca", "yearMonthDay"],
};

export function isEditableMasterData(name: string): name is EditableMasterData {
  return (EDITABLE_MASTER_DATA as readonly string[]).includes(name);
}

export type MasterDataChange = {
  _id?: ObjectId;
  collection: EditableMasterData;
  rowId: ObjectId;
  field: string;
  old: string | Date | null;
  new: string | Date | null;
  /** The e-mail of who changed it. */
  user: string;
  at: Date;
  /** "excel" when the value came from an edited export ("via Excel"). */
  via?: "excel";
};

/** Product master row: the planning quantity master row of spec 000 plus the catalogue fields of spec 001. */
export type ProductMasterRow = ImportedRow & {
  id: number;
  sku: string;
  material_description: string;
  material_description_en: string;
  marca: string;
  category_sku: string;
  categoria_principal_sku: string;
  sub_categoria_sku: string;
  hero: string;
  skherou: string;
  abcd: string;
  plc_local: string;
  plc_localsku: string;
  plc_global: string;
  /** "Global Forecast End Date". */
  data_validade_sku: Date;
  creationDate: Date;
};

export type ProductMasterNokRow = ImportedRow & {
  sku: string;
  _lineNumber: number;
  timeStamp: Date;
  Error: string;
};

export type ChannelRow = ImportedRow & {
  cnpj: string;
  description: string;
  channel_siop: string;
};

export type ChannelNokRow = ImportedRow & {
  creationDate: Date;
  Error: string;
  _lineNumber: number;
};

export type SpendRow = ImportedRow & {
  channel: string;
  marca: string;
  /** The version, YYYYMMDD. */
  yearMonthDay: string;
};

export type SpendNokRow = ImportedRow & {
  channel: string;
  marca: string;
  yearMonthDay: string;
  _lineNumber: number;
  timeStamp: Date;
  Error: string;
};

function rowIndexes(collection: MasterDataCollectionName, extra: IndexDeclaration[] = []): IndexDeclaration[] {
  return [
    // The rows of one file in line order (a base narrowed to a file; the job list's link to its rejected rows).
    { collection, key: { urlPath: 1, _id: 1 }, options: { name: "urlPath_id" } },
    { collection, key: { sourceFileId: 1 }, options: { name: "sourceFileId" } },
    ...extra,
  ];
}

// Whole bases are paged newest first by _id, which every collection has indexed already.
export const indexes: IndexDeclaration[] = [
  {
    collection: MASTER_DATA_COLLECTIONS,
    key: { collection_name: 1 },
    options: { unique: true, name: "collection_name_unique" },
  },
  { collection: MASTER_DATA_COLLECTIONS, key: { order: 1 }, options: { name: "order" } },
  ...rowIndexes(PRODUCT_MASTER, [
    { collection: PRODUCT_MASTER, key: { sku: 1 }, options: { name: "sku" } },
    { collection: PRODUCT_MASTER, key: { marca: 1, categoria_principal_sku: 1 }, options: { name: "marca_categoria" } },
  ]),
  ...rowIndexes(PRODUCT_MASTER_NOK, [{ collection: PRODUCT_MASTER_NOK, key: { sku: 1 }, options: { name: "sku" } }]),
  ...rowIndexes(CHANNEL, [{ collection: CHANNEL, key: { cnpj: 1 }, options: { name: "cnpj" } }]),
  ...rowIndexes(CHANNEL_NOK),
  ...rowIndexes(PLANNING_SPEND, [
    {
      collection: PLANNING_SPEND,
      key: { channel: 1, marca: 1, yearMonthDay: 1 },
      options: { name: "channel_marca_version" },
    },
  ]),
  ...rowIndexes(PLANNING_SPEND_NOK),
  // A row's history, newest first.
  {
    collection: MASTER_DATA_HISTORY,
    key: { collection: 1, rowId: 1, at: -1 },
    options: { name: "collection_rowId_at" },
  },
];
