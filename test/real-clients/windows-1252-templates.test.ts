import { describe, expect, it } from "vitest";
import { usePortalToday } from "#test/clock";
import { useTestDatabase } from "#test/db";
import { repositoryFiles, uploadAndProcess } from "#test/uploads";
import { TEMPLATES } from "~/platform/import/registry";
import type { Template } from "~/platform/import/template";
import { useTempDataDir } from "../upload-fixtures";

/**
 * Every template, saved as Excel in Portuguese saves "CSV (separado por vírgulas)": ";", Windows-1252, no BOM. A text
 * column holds every character Windows-1252 puts at 0x80–0x9F; it is stored as those characters, in every template.
 */
const testDb = useTestDatabase();
// The files load RF1 2026 forecast rows, which change only in that RF's edit month (November 2025).
usePortalToday("2025-11-15");
useTempDataDir();

/** The 27 characters of bytes 0x80–0x9F (0x81, 0x8D, 0x8F, 0x90 and 0x9D are undefined in Windows-1252). */
const HIGH = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";
const BYTE_OF = new Map(
  [...HIGH].map((char, i) => [
    char,
    [
      0x80, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8e, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96,
      0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9e, 0x9f,
    ][i],
  ]),
);

/** Text as Excel writes it in Windows-1252: the high characters as their bytes, the rest as Latin-1. */
function windows1252(text: string): Buffer {
  return Buffer.from([...text].flatMap((char) => BYTE_OF.get(char) ?? [...Buffer.from(char, "latin1")]));
}

/** A free-text column: no pattern, room for the characters, not a key. */
function textColumn(template: Template): string | null {
  const keys = template.load.mode === "all-or-nothing" ? template.load.keyColumns : [];
  const column = template.columns.find(
    (c) => c.rule.kind === "text" && !c.rule.pattern && c.rule.max >= HIGH.length + 10 && !keys.includes(c.name),
  );
  return column?.name ?? null;
}

describe("a template saved as CSV by Excel in Portuguese (Windows-1252)", () => {
  it.each(TEMPLATES.map((t) => [t.id, t] as const))("%s stores every character of 0x80–0x9F", async (_id, template) => {
    const column = textColumn(template);
    expect(column, `${template.id} has a free-text column`).not.toBeNull();
    const value = `Área ${HIGH} fim`;
    const cells = template.columns.map((c) => (c.name === column ? value : String(c.example)));
    // A fiscal item names its worksheet and document, which must be files of the repository (a name may be the text).
    await repositoryFiles(template.columns.flatMap((c, i) => (/_file$/.test(c.name) ? [cells[i]] : [])));
    const csv = `${template.columns.map((c) => c.name).join(";")}\r\n${cells.join(";")}\r\n`;
    const { file } = await uploadAndProcess(`${template.id}.csv`, windows1252(csv));
    expect(file, JSON.stringify(file?.message)).toMatchObject({ status: 0 });
    const collection =
      template.load.mode === "rows-with-nok" ? template.load.okCollection : datasetCollectionOf(template.id, column!);
    // Stored as the text, under its own name or (a fiscal item's file) in the reference the row keeps.
    const stored = await (await testDb.db()).collection(collection).find({}).toArray();
    expect(JSON.stringify(stored), `${collection}.${column}`).toContain(JSON.stringify(value).slice(1, -1));
  });
});

/** Where a dataset template stores a column: the ledger keeps its account columns in the chart of accounts. */
function datasetCollectionOf(id: string, column: string): string {
  if (id === "ledger" && /^category|^working_capital$|^fiscal$/.test(column)) return "ledger_accounts";
  const collections: Record<string, string> = {
    planning_quantity: "planning_quantity",
    forecast: "forecast",
    ledger: "ledger",
    hr_aux: "hr_aux",
    fpa_responsibles: "fpa_responsibles",
    fiscal_items: "fiscal_items",
  };
  return collections[id];
}
