import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { usePortalToday } from "#test/clock";
import { useTestDatabase } from "#test/db";
import { uploadAndProcess } from "#test/uploads";
import { FORECAST } from "~/models/forecast.server";
import { useTempDataDir } from "../upload-fixtures";

/**
 * The forecast template as LibreOffice Calc wrote it (test/fixtures/real-clients, made by
 * scripts/real-client-fixtures/make.py): the same two rows saved as XLSX, as the CSV Excel in Portuguese writes
 * (";", numbers as shown, Windows-1252 without a BOM), as UTF-8 with a BOM, as "Texto Unicode" (UTF-16 LE,
 * tab-separated), and as XLSX with the numbers typed as text and formatted empty columns and rows after the data.
 * Each is stored with exactly the same values: the autocorrected dashes, quotes, euro sign and bullet included.
 */
const testDb = useTestDatabase();
// The files load RF1 2026 forecast rows, which change only in that RF's edit month (November 2025).
usePortalToday("2025-11-15");
useTempDataDir();

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../fixtures/real-clients", name));

const STORED = [
  {
    rf: "RF1 2026",
    cost_center_concat: "CC1001 - Marketing",
    cost_center: "CC1001",
    level_descr: "Comercial – Sul",
    group_level_2: "Despesas com Pessoal",
    data_ref: new Date(Date.UTC(2026, 0, 1)),
    account_concat: "4101001 - Salários e Ordenados",
    acc_description: "Salários “fixos” — d’Ávila • 5 €",
    value: 1234.5,
    forecast: 182500,
  },
  {
    rf: "RF1 2026",
    cost_center_concat: "CC1001 - Marketing",
    cost_center: "CC1001",
    level_descr: "Comercial – Sul",
    group_level_2: "Despesas com Pessoal",
    data_ref: new Date(Date.UTC(2026, 1, 1)),
    account_concat: "4101001 - Salários e Ordenados",
    value: 0,
    forecast: -1234.56,
  },
];

describe("a forecast file written by LibreOffice Calc", () => {
  it.each([
    ["forecast-excel-pt-br.csv", "CSV as Excel in Portuguese writes it (Windows-1252, ';', 1.234,50)"],
    ["forecast-utf8-bom.csv", "CSV in UTF-8 with a BOM"],
    ["forecast-texto-unicode.txt", "Texto Unicode (UTF-16 LE with a BOM, tab-separated)"],
    ["forecast-libreoffice.xlsx", "XLSX with number and date cells"],
    ["forecast-typed-text.xlsx", "XLSX with numbers typed as text and formatted empty columns and rows"],
  ])("%s (%s) stores exactly the values typed", async (name) => {
    const { file } = await uploadAndProcess(name, fixture(name));
    expect(file).toMatchObject({ status: 0, message: expect.stringMatching(/^2 linhas OK, 0 NOK\./) });
    const stored = await (await testDb.db())
      .collection(FORECAST)
      .find({}, { projection: { _id: 0, ...Object.fromEntries(Object.keys(STORED[0]).map((k) => [k, 1])) } })
      .sort({ data_ref: 1 })
      .toArray();
    expect(stored).toEqual([
      STORED[0],
      // An empty description is the text after " - " in account_concat (the template's rule).
      { ...STORED[1], acc_description: "Salários e Ordenados" },
    ]);
  });
});
