import type { ObjectId } from "mongodb";
import {
  ATTRIBUTES,
  type AttributeField,
  CHANNELS,
  type Channel,
  type Direction,
  type PlanningFilter,
} from "~/models/planning.fields";
import type { IndexDeclaration } from "./indexes";
import { catalogueIndexes } from "./planning-catalogue.server";
import { nokIndexes } from "./upload-rows.server";

/**
 * Planned SKU quantities per channel and competency month (spec 001 §3 "Planning quantity row"), the record
 * of every save made to them, and the per-row history of individual saves.
 */

export const PLANNING_QUANTITY = "planning_quantity";
/** One document per save, individual ("unitario") or batch ("lote"): who, when, the filter, the factor, the counts. */
export const PLANNING_SAVES = "planning_quantity_saves";
/** One document per row changed by a save (individual or batch): the old and the new quantity. */
export const PLANNING_HISTORY = "planning_quantity_history";
/** The rows of uploaded planning-quantity files that broke a rule (import template "planning_quantity"). */
export const PLANNING_QUANTITY_NOK = "planning_quantity_nok";

export { CHANNELS, type Channel };

export type PlanningQuantityRow = {
  _id?: ObjectId;
  /** Stamped again by every edit; the list shows newest first. */
  creationDate: Date;
  sku: string;
  material_description: string;
  /** Planned quantity, an integer >= 0. */
  valor: number;
  marca: string;
  channel: Channel;
  hero: string;
  abcd: string;
  plc_localsku: string;
  category_sku: string;
  categoria_principal_sku: string;
  sub_categoria_sku: string;
  /** The competency month: the first day of the month, 00:00 UTC. */
  dateRef: Date;
  updatedBy: string | null;
  updatedAt: Date | null;
  /** Incremented by every save: an individual save names the revision it read (optimistic concurrency). */
  revision: number;
  /** The save that last changed the row. */
  lastSaveId?: ObjectId | null;
  /** The valor before the last batch save that changed the row: its per-row history is read from it right after the update. */
  batchFrom?: number;
};

export type SaveMode = "unitario" | "lote";
/** Which screen saved: the planning edit screen or the report preview. */
export type SaveScreen = "plan_edit" | "report_preview";

export type RowRef = { rowId: ObjectId; sku: string; channel: string; dateRef: Date };
export type ConflictRecord = RowRef & { current: number };

export type PlanningSaveRecord = {
  _id: ObjectId;
  at: Date;
  user: string;
  mode: SaveMode;
  screen: SaveScreen;
  /** The validated filter of the screen (never a query), as the URL carries it. */
  filter: PlanningFilter;
  /** The channels the filter covers (every channel when it names none): how a row finds the batches that touched it. */
  channels: Channel[];
  status: "pending" | "done" | "failed";
  /** Batch: the percentage, its direction and the multiplier in hundredths (110 = ×1.1). */
  batch: { percent: number; op: Direction; multiplier: number } | null;
  /** Rows the save matched and changed (batch: the updateMany's counts; individual: the rows written). */
  matched: number;
  modified: number;
  /** Individual: the rows refused because they changed after the page was loaded. */
  conflicts: ConflictRecord[];
  /** "excel" when the values came from an edited export ("via Excel"); "spread" from "Distribuir total". */
  via?: "excel" | "spread";
  /** Batch: every row it changed has a history record of its own (old and new); older batches have none. */
  rowHistory?: boolean;
};

export type PlanningHistoryRecord = {
  _id?: ObjectId;
  rowId: ObjectId;
  saveId: ObjectId;
  at: Date;
  user: string;
  mode: SaveMode;
  screen: SaveScreen;
  /** A batch's percentage and direction (mode "lote"). */
  batch?: { percent: number; op: Direction };
  /** "excel" when the value came from an edited export ("via Excel"); "upload" from an upload template; "spread" from
   * "Distribuir total". */
  via?: "excel" | "upload" | "spread";
  old: number;
  new: number;
};

/**
 * Every read of the screens is served by one of these (docs/decisions.md "Planning"): a filter always holds
 * `channel $in` (every channel when none is chosen) and a `dateRef` range; sku and attribute lists are `$in`.
 * - pages (sort creationDate desc, _id desc): channel_creationDate, or sku_channel_creationDate when SKUs are named (by
 *   the filter, or by its attribute sets: models/planning-attribute-sets.server.ts; one point per SKU and channel), or
 *   <attribute>_channel_creationDate when a brand or category is chosen (a brand is a tenth of a channel's rows: walking
 *   the channel in date order would read ten rows for each one shown, 10,000 for page 50); the attributes with a
 *   handful of values (hero, ABCD, PLC) read the channel's walk or, for a rare value, their count index and a sort,
 *   whichever the planner finds cheaper; a filter by those few-valued attributes alone (FEW_VALUED_ATTRIBUTES) names
 *   every value of the ones not chosen (models/planning-queries.server.ts), so hero_abcd_plc_channel_creationDate holds
 *   its rows as a handful of ranges, each in the screen's order, merged;
 * - counts: channel_dateRef_creationDate (channel + period, counted from the index), sku_channel_dateRef,
 *   hero_abcd_plc_channel_dateRef for the few-valued attributes, and one <attribute>_channel_dateRef per attribute
 *   (with several attributes, the most selective one is read; these also give `distinct` its values);
 * - the batch's freshness check: channel_creationDate with a creationDate range.
 */
export const PAGED_ATTRIBUTES: readonly AttributeField[] = [
  "marca",
  "category_sku",
  "categoria_principal_sku",
  "sub_categoria_sku",
];
/** The attributes of a handful of values each (2, 5 and 6 in the plan): one index holds every combination of them. */
export const FEW_VALUED_ATTRIBUTES: readonly AttributeField[] = ["hero", "abcd", "plc_localsku"];
const FEW_KEY = Object.fromEntries(FEW_VALUED_ATTRIBUTES.map((field) => [field, 1]));

export const indexes: IndexDeclaration[] = [
  {
    collection: PLANNING_QUANTITY,
    key: { channel: 1, creationDate: -1, _id: -1 },
    options: { name: "channel_creationDate" },
  },
  {
    collection: PLANNING_QUANTITY,
    key: { channel: 1, dateRef: 1, creationDate: -1 },
    options: { name: "channel_dateRef_creationDate" },
  },
  {
    collection: PLANNING_QUANTITY,
    key: { sku: 1, channel: 1, creationDate: -1, _id: -1 },
    options: { name: "sku_channel_creationDate" },
  },
  { collection: PLANNING_QUANTITY, key: { sku: 1, channel: 1, dateRef: 1 }, options: { name: "sku_channel_dateRef" } },
  // One per attribute: a count filtered by any attribute reads the index, not the channel's rows.
  ...ATTRIBUTES.map((a) => ({
    collection: PLANNING_QUANTITY,
    key: { [a.field]: 1, channel: 1, dateRef: 1 },
    options: { name: `${a.field}_channel_dateRef` },
  })),
  // Pages filtered by an attribute with many values, in the screen's order.
  ...PAGED_ATTRIBUTES.map((field) => ({
    collection: PLANNING_QUANTITY,
    key: { [field]: 1, channel: 1, creationDate: -1, _id: -1 },
    options: { name: `${field}_channel_creationDate` },
  })),
  // Pages and counts filtered by the few-valued attributes alone, each value of the others named.
  {
    collection: PLANNING_QUANTITY,
    key: { ...FEW_KEY, channel: 1, creationDate: -1, _id: -1 },
    options: { name: "hero_abcd_plc_channel_creationDate" },
  },
  {
    collection: PLANNING_QUANTITY,
    key: { ...FEW_KEY, channel: 1, dateRef: 1 },
    options: { name: "hero_abcd_plc_channel_dateRef" },
  },
  { collection: PLANNING_HISTORY, key: { rowId: 1, at: -1 }, options: { name: "rowId_at" } },
  { collection: PLANNING_SAVES, key: { mode: 1, channels: 1, at: -1 }, options: { name: "mode_channels_at" } },
  ...catalogueIndexes,
  ...nokIndexes(PLANNING_QUANTITY_NOK),
];
