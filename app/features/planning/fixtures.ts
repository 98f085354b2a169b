import { type Db, ObjectId } from "mongodb";
import { applyIndexes } from "~/models/all-indexes.server";
import { PRODUCT_MASTER } from "~/models/master-data.server";
import {
  PLANNING_HISTORY,
  PLANNING_QUANTITY,
  PLANNING_SAVES,
  type PlanningQuantityRow,
} from "~/models/planning.server";
import { rebuildAttributeSets } from "~/models/planning-attribute-sets.server";

/**
 * A small catalogue and plan whose every value is known, for the planning loader, action and model tests:
 * 6 SKUs × (WHOLESALES, FSS) × Jan–Mar 2026 = 36 rows, plus 6 BRANDSITE rows in Jan; creationDate strictly
 * decreasing with the row number (row 0 is the newest).
 */

export const PRODUCTS = [
  {
    sku: "80000001",
    material_description: "BATOM AURORA 3,5G",
    marca: "Aurora Bela",
    category_sku: "Lábios",
    categoria_principal_sku: "Makeup",
    sub_categoria_sku: "Batom",
    hero: "hero",
    abcd: "A",
    plc_localsku: "3-Released",
  },
  {
    sku: "80000002",
    material_description: "GLOSS AURORA 5ML",
    marca: "Aurora Bela",
    category_sku: "Lábios",
    categoria_principal_sku: "Makeup",
    sub_categoria_sku: "Gloss",
    hero: "non-hero",
    abcd: "B",
    plc_localsku: "3-Released",
  },
  {
    sku: "80000003",
    material_description: "SERUM VIVACE 30ML",
    marca: "Vivace",
    category_sku: "Rosto",
    categoria_principal_sku: "Skincare",
    sub_categoria_sku: "Sérum",
    hero: "non-hero",
    abcd: "C",
    plc_localsku: "4-Launch Event",
  },
  {
    sku: "80000004",
    material_description: "SHAMPOO VIVACE 300ML",
    marca: "Vivace",
    category_sku: "Limpeza",
    categoria_principal_sku: "Haircare",
    sub_categoria_sku: "Shampoo",
    hero: "hero",
    abcd: "",
    plc_localsku: "3-Released",
  },
  {
    sku: "80000005",
    material_description: "COLONIA LUMINA 100ML",
    marca: "Lumina",
    category_sku: "Colônias",
    categoria_principal_sku: "Fragrance",
    sub_categoria_sku: "Colônia",
    hero: "non-hero",
    abcd: "D",
    plc_localsku: "5-Phase Out",
  },
  {
    sku: "80000006",
    material_description: "KIT LUMINA",
    marca: "Lumina",
    category_sku: "Kits",
    categoria_principal_sku: "Other",
    sub_categoria_sku: "Kit",
    hero: "non-hero",
    abcd: "A",
    plc_localsku: "1-Concept",
  },
] as const;

export const MONTHS = [
  new Date("2026-01-01T00:00:00Z"),
  new Date("2026-02-01T00:00:00Z"),
  new Date("2026-03-01T00:00:00Z"),
];
const NEWEST = new Date("2026-04-20T12:00:00Z").getTime();

export function planningRows(): PlanningQuantityRow[] {
  const rows: PlanningQuantityRow[] = [];
  let n = 0;
  const push = (p: (typeof PRODUCTS)[number], channel: PlanningQuantityRow["channel"], dateRef: Date) => {
    const creationDate = new Date(NEWEST - n * 3_600_000);
    rows.push({
      _id: ObjectId.createFromTime(Math.floor(creationDate.getTime() / 1000) - 86_400 * 30 + n),
      creationDate,
      sku: p.sku,
      material_description: p.material_description,
      valor: 100 + n * 7,
      marca: p.marca,
      channel,
      hero: p.hero,
      abcd: p.abcd,
      plc_localsku: p.plc_localsku,
      category_sku: p.category_sku,
      categoria_principal_sku: p.categoria_principal_sku,
      sub_categoria_sku: p.sub_categoria_sku,
      dateRef,
      updatedBy: null,
      updatedAt: null,
      revision: 0,
    });
    n++;
  };
  for (const p of PRODUCTS)
    for (const channel of ["WHOLESALES", "FSS"] as const) for (const month of MONTHS) push(p, channel, month);
  for (const p of PRODUCTS) push(p, "BRANDSITE", MONTHS[0]);
  return rows;
}

/** Empties and refills the catalogue and the plan (indexes applied), forgetting every save. */
export async function resetPlanning(db: Db): Promise<PlanningQuantityRow[]> {
  await applyIndexes(db);
  await Promise.all(
    [PRODUCT_MASTER, PLANNING_QUANTITY, PLANNING_SAVES, PLANNING_HISTORY].map((c) => db.collection(c).deleteMany({})),
  );
  await db
    .collection(PRODUCT_MASTER)
    .insertMany(
      PRODUCTS.map((p, i) => ({ ...p, id: i + 1, plc_local: p.plc_localsku, urlPath: "p.xlsx", sourceFileId: null })),
    );
  const rows = planningRows();
  await db.collection<PlanningQuantityRow>(PLANNING_QUANTITY).insertMany(rows);
  await rebuildAttributeSets(db);
  return rows;
}

/** Everything a save could change, to compare before and after a refused request. */
export async function planningSnapshot(db: Db) {
  const [rows, saves, history] = await Promise.all([
    db.collection(PLANNING_QUANTITY).find({}).sort({ _id: 1 }).toArray(),
    db.collection(PLANNING_SAVES).countDocuments(),
    db.collection(PLANNING_HISTORY).countDocuments(),
  ]);
  return { rows, saves, history };
}
