import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { importPlanningFile } from "~/features/planning/excel.server";
import { PLANNING_HISTORY, PLANNING_QUANTITY } from "~/models/planning.server";
import { PLANNING_ROWS } from "./planning-rows";

/**
 * The planning grid's "Exportar Excel" opened in LibreOffice Calc, one quantity typed over, saved as XLSX by Calc
 * (its own shared strings, styles and number cells: test/fixtures/real-clients/planejamento-libreoffice.xlsx, made by
 * scripts/real-client-fixtures/make.py from the rows of planning-rows.ts) and sent back: that one change applies.
 */
const testDb = useTestDatabase();

describe("a planning export edited and saved by LibreOffice Calc", () => {
  it("applies the one quantity typed over, and nothing else", async () => {
    const db = await testDb.db();
    await db.collection(PLANNING_QUANTITY).insertMany(PLANNING_ROWS.map((row) => ({ ...row })));
    const file = fs.readFileSync(path.join(__dirname, "../fixtures/real-clients/planejamento-libreoffice.xlsx"));
    const outcome = await importPlanningFile(Readable.from(file), "gold@example.com", "plan_edit");
    expect(outcome).toMatchObject({ ok: true, report: { changed: 1, conflicts: [], refused: [] } });
    // The export lists the newest row first: the third, whose 30 became 11.
    const stored = await db
      .collection(PLANNING_QUANTITY)
      .find({}, { sort: { sku: 1 } })
      .toArray();
    expect(stored.map((r) => [r.sku, r.valor, r.revision])).toEqual([
      ["80000001", 10, 0],
      ["80000002", 20, 0],
      ["80000003", 11, 1],
    ]);
    expect(await db.collection(PLANNING_HISTORY).countDocuments({ via: "excel", old: 30, new: 11 })).toBe(1);
  });
});
