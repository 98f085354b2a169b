/**
 * The portal exports that scripts/real-client-fixtures/make.py opens in LibreOffice Calc, edits and saves: written by
 * the portal's own "Exportar Excel" over fixed rows (test/real-clients/planning-rows.ts), into the folder named by
 * the first argument.
 *
 *   npx tsx scripts/real-client-fixtures/exports.ts <folder>
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { startEmbeddedMongo } from "embedded-mongo";

async function main() {
  const folder = process.argv[2];
  if (!folder) throw new Error("usage: exports.ts <folder>");
  const db = await startEmbeddedMongo({ port: 0 });
  process.env.MONGODB_URI = db.uri;
  process.env.DATABASE_NAME = "real_client_fixtures";
  const { getDb, closeDb } = await import("~/db.server");
  const { PLANNING_QUANTITY } = await import("~/models/planning.server");
  const { PLANNING_FILTER, PLANNING_ROWS } = await import("#test/real-clients/planning-rows");
  const { parseFilter } = await import("~/features/planning/planning");
  const { planningXlsx } = await import("~/features/planning/excel.server");
  await (await getDb()).collection(PLANNING_QUANTITY).insertMany(PLANNING_ROWS);
  const parsed = parseFilter(new URLSearchParams(PLANNING_FILTER), "plan");
  if (!parsed.ok) throw new Error("filter");
  const bytes = Buffer.from(await planningXlsx(parsed.filter).arrayBuffer());
  await writeFile(path.join(folder, "planejamento.xlsx"), bytes);
  await closeDb();
  await db.stop();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
