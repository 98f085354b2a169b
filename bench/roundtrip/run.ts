/**
 * The Excel round trip of the planning grid (/ij/plan_edit "Exportar Excel" → edit → "Importar Excel"), timed at the
 * sizes people send back: 10,000 rows with 10 changes and 100,000 rows with 1,000 changes. Beside each import it
 * measures its floor in the same run, on the same file and database: reading the file alone, one bulk read of the
 * file's rows by _id and one bulk write of the changed rows. It prints the import's time, the floor, their ratio and
 * the target (≤ 3 s and ≤ 15 s).
 *
 *   npx tsx bench/roundtrip/run.ts [--sizes 10000:10,100000:1000] [--runs 3]
 *
 * The database is the embedded server in its own process (as `npm run dev` runs it), in a temporary folder.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { ObjectId } from "mongodb";

const { values: args } = parseArgs({
  options: { sizes: { type: "string", default: "10000:10,100000:1000" }, runs: { type: "string", default: "3" } },
});
const TARGET_MS: Record<number, number> = { 10000: 3_000, 100000: 15_000 };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bench-roundtrip-"));
  const { startEmbeddedDbProcess } = await import("embedded-mongo/process");
  const db = await startEmbeddedDbProcess(path.join(dir, "db"));
  process.env.MONGODB_URI = db.uri;
  process.env.DATABASE_NAME = "bench_roundtrip";
  const { getDb, closeDb } = await import("~/db.server");
  const { parseFilter } = await import("~/features/planning/planning");
  const { importPlanningFile, planningXlsx } = await import("~/features/planning/excel.server");
  const { readXlsxRows } = await import("xlsx-reader");
  const { PLANNING_QUANTITY } = await import("~/models/planning.server");
  const Excel = (await import("exceljs")).default;
  const rows = (await getDb()).collection(PLANNING_QUANTITY);
  const parsed = parseFilter(new URLSearchParams("chanel=WHOLESALES"), "plan");
  if (!parsed.ok) throw new Error("filter");

  console.log("size\tchanges\timport ms\tfloor ms (read file + bulk read + bulk write)\tratio\ttarget");
  for (const spec of args.sizes.split(",")) {
    const [size, changes] = spec.split(":").map(Number);
    await rows.deleteMany({});
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < size; i += 10_000) {
      await rows.insertMany(
        Array.from({ length: Math.min(10_000, size - i) }, (_, k) => ({
          _id: new ObjectId(),
          sku: `SKU${String(i + k).padStart(7, "0")}`,
          channel: "WHOLESALES",
          dateRef: new Date(base),
          valor: (i + k) % 1000,
          revision: 0,
          marca: "Marca A",
          material_description: `Produto ${i + k}`,
          creationDate: new Date(base),
        })),
      );
    }
    const exported = Buffer.from(await planningXlsx(parsed.filter).arrayBuffer());
    // The file sent back: the export with `changes` quantities raised by one, spread over the file.
    const workbook = new Excel.Workbook();
    await workbook.xlsx.load(exported as never);
    const sheet = workbook.worksheets[0];
    const step = Math.floor(size / changes);
    const changedIds: string[] = [];
    const idColumn = (sheet.getRow(1).values as unknown[]).indexOf("_id");
    for (let c = 0; c < changes; c++) {
      const row = sheet.getRow(2 + c * step);
      row.getCell(5).value = Number(row.getCell(5).value) + 1;
      changedIds.push(String(row.getCell(idColumn).value));
    }
    const edited = Buffer.from(await workbook.xlsx.writeBuffer());

    const imports: number[] = [];
    const floors: number[] = [];
    for (let run = 0; run < Number(args.runs); run++) {
      // The floor: the file read, its rows read by _id in one query, the changed rows written in one bulk write.
      const [ids, readMs] = await timed(async () => {
        const out: ObjectId[] = [];
        for await (const r of readXlsxRows(Readable.from(edited)))
          if (r.line > 1 && typeof r.cells[idColumn - 1] === "string")
            out.push(new ObjectId(String(r.cells[idColumn - 1])));
        return out;
      });
      const [, bulkReadMs] = await timed(() => rows.find({ _id: { $in: ids } }).toArray());
      const [, bulkWriteMs] = await timed(() =>
        rows.bulkWrite(
          changedIds.map((id) => ({ updateOne: { filter: { _id: new ObjectId(id) }, update: { $inc: { x: 1 } } } })),
        ),
      );
      floors.push(readMs + bulkReadMs + bulkWriteMs);
      // Each import applies the same edits to the rows as exported: revisions and values are put back first.
      await rows.updateMany({}, [
        { $set: { revision: 0, valor: { $mod: [{ $toInt: { $substr: ["$sku", 3, 7] } }, 1000] } } },
      ]);
      const [outcome, importMs] = await timed(() =>
        importPlanningFile(Readable.from(edited), "bench@example.com", "plan_edit"),
      );
      if (!outcome.ok || outcome.report.changed !== changes)
        throw new Error(`the import did not apply ${changes} changes: ${JSON.stringify(outcome).slice(0, 300)}`);
      imports.push(importMs);
    }
    const importMs = median(imports);
    const floorMs = median(floors);
    const target = TARGET_MS[size];
    console.log(
      [
        size,
        changes,
        importMs.toFixed(0),
        floorMs.toFixed(0),
        (importMs / floorMs).toFixed(2),
        target ? `${importMs <= target ? "met" : "MISSED"} (≤ ${target} ms)` : "-",
      ].join("\t"),
    );
  }
  await closeDb();
  await db.stop?.();
  await rm(dir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
