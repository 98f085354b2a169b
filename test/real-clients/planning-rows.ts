import { ObjectId } from "mongodb";
import type { PlanningQuantityRow } from "~/models/planning.server";

/**
 * The planning rows behind test/fixtures/real-clients/planejamento-*.xlsx: the export scripts/real-client-fixtures
 * makes from them, and the test that sends the edited file back, seed the same rows (fixed ids, revision 0).
 */
export const PLANNING_FILTER = "chanel=WHOLESALES&dateStart=2026-01-01&dateEnd=2026-03-31";

export const PLANNING_ROWS: PlanningQuantityRow[] = [1, 2, 3].map((n) => ({
  _id: new ObjectId(`6a00000000000000000000${String(n).padStart(2, "0")}`),
  creationDate: new Date(Date.UTC(2026, 0, 10 + n)),
  sku: `8000000${n}`,
  material_description: n === 1 ? "Batom “Vermelho” – edição 2026" : `Produto ${n}`,
  valor: 10 * n,
  marca: "Marca A",
  channel: "WHOLESALES",
  hero: "hero",
  abcd: "A",
  plc_localsku: "3-Released",
  category_sku: "Lips",
  categoria_principal_sku: "Makeup",
  sub_categoria_sku: "Batom",
  dateRef: new Date(Date.UTC(2026, n - 1, 1)),
  updatedBy: null,
  updatedAt: null,
  revision: 0,
}));
