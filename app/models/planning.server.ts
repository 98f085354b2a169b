import type { ObjectId } from "mongodb";
import type { IndexDeclaration } from "./indexes";

/** Planned SKU quantities per channel and competency month (spec 001 §3 "Planning quantity row"). */

export const PLANNING_QUANTITY = "planning_quantity";

export const CHANNELS = ["WHOLESALES", "BRANDSITE", "ONLINE_PARTNERS", "FSS"] as const;
export type Channel = (typeof CHANNELS)[number];

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
};

export const indexes: IndexDeclaration[] = [
  { collection: PLANNING_QUANTITY, key: { channel: 1, dateRef: 1, creationDate: -1 }, options: { name: "channel_dateRef_creationDate" } },
  { collection: PLANNING_QUANTITY, key: { creationDate: -1, _id: -1 }, options: { name: "creationDate_desc" } },
  { collection: PLANNING_QUANTITY, key: { sku: 1, channel: 1, dateRef: 1 }, options: { name: "sku_channel_dateRef" } },
];
