import type { Db } from "mongodb";
import type { ProductMasterRow } from "~/models/master-data.server";
import {
  CHANNELS,
  type Channel,
  PLANNING_HISTORY,
  PLANNING_SAVES,
  type PlanningQuantityRow,
} from "~/models/planning.server";
import { monthStart, randomInstantBefore, type SeedContext, scaled } from "./context";

/** Competency months of the plan: three closed months, the reference month and eight ahead. */
export const PLANNING_MONTH_OFFSETS = Array.from({ length: 12 }, (_, i) => i - 3);

const ABCD_VOLUME: Record<string, readonly [number, number]> = {
  A: [2000, 8000],
  B: [800, 3000],
  C: [200, 1000],
  D: [20, 300],
  "": [0, 100],
};
const CHANNEL_FACTOR: Record<Channel, number> = { WHOLESALES: 1.6, FSS: 1, ONLINE_PARTNERS: 0.6, BRANDSITE: 0.35 };
/** Mother's Day (May), Black Friday and Christmas lift the plan. */
const MONTH_FACTOR = [0.85, 0.8, 0.9, 0.95, 1.25, 1, 0.95, 1, 1, 1.05, 1.3, 1.45];

/** Number of planning rows at this scale (>= 100,000 at scale 1). */
export function planningRowCount(ctx: SeedContext): number {
  return scaled(ctx, 100_000, 48);
}

/**
 * The competency months a product is planned for, by its local life cycle: concept and development
 * products only from the reference month on (their launch), discontinued ones only in the closed months;
 * the rest in every month of the plan. So every life-cycle value of the catalogue has planned rows.
 */
function monthsFor(plcLocal: string, months: readonly Date[], reference: Date): readonly Date[] {
  if (plcLocal.startsWith("1") || plcLocal.startsWith("2"))
    return months.filter((m) => m.getTime() >= reference.getTime());
  if (plcLocal.startsWith("6")) return months.filter((m) => m.getTime() < reference.getTime());
  return months;
}

/**
 * One row per (SKU, channel, competency month) for SKUs of the product master, until the volume is reached.
 * Every SKU comes from the product master; every row starts at revision 0 (app/models/planning.server.ts).
 */
export function* generatePlanning(
  ctx: SeedContext,
  products: readonly ProductMasterRow[],
): Generator<PlanningQuantityRow> {
  const random = ctx.random.fork("planning_quantity");
  const target = planningRowCount(ctx);
  const perSku = CHANNELS.length * PLANNING_MONTH_OFFSETS.length;
  const months = PLANNING_MONTH_OFFSETS.map((offset) => monthStart(ctx.reference, offset));
  // Some SKUs have fewer months (life cycle): sample a quarter more than a full plan per SKU needs.
  const skus = random.sample(products, Math.min(products.length, Math.ceil((target / perSku) * 1.25)));
  let produced = 0;
  for (const product of skus) {
    const [low, high] = ABCD_VOLUME[product.abcd] ?? ABCD_VOLUME[""];
    const skuBase = random.int(low, high) * (product.hero === "hero" ? 1.5 : 1);
    for (const channel of CHANNELS) {
      for (const dateRef of monthsFor(product.plc_local, months, ctx.reference)) {
        if (produced >= target) return;
        const noise = 0.8 + random.next() * 0.4;
        const valor = Math.round(skuBase * CHANNEL_FACTOR[channel] * MONTH_FACTOR[dateRef.getUTCMonth()] * noise);
        const creationDate = randomInstantBefore(random, ctx.reference, 90);
        yield {
          _id: random.objectId(creationDate),
          creationDate,
          sku: product.sku,
          material_description: product.material_description,
          valor,
          marca: product.marca,
          channel,
          hero: product.hero,
          abcd: product.abcd,
          plc_localsku: product.plc_localsku,
          category_sku: product.category_sku,
          categoria_principal_sku: product.categoria_principal_sku,
          sub_categoria_sku: product.sub_categoria_sku,
          dateRef,
          updatedBy: null,
          updatedAt: null,
          revision: 0,
        };
        produced++;
      }
    }
  }
}

/**
 * Forgets the saves and row histories of an earlier plan: the seed's row ids are deterministic, so an old
 * history would otherwise attach itself to the new rows.
 */
export async function clearPlanningRecords(db: Db): Promise<void> {
  await Promise.all([db.collection(PLANNING_SAVES).deleteMany({}), db.collection(PLANNING_HISTORY).deleteMany({})]);
}
