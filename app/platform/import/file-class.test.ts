import { describe, expect, it } from "vitest";
import type { CellValue } from "~/shared/excel/values";
import { TEMPLATE_CATALOG } from "./catalog.server";
import { CLASSIFY_SAMPLE_ROWS, classifyRows, cpfCell, readAsHr } from "./file-class.server";

/** The rule that classifies a stored spreadsheet from its first rows: HR when anything says so, plain otherwise. */

async function classOf(rows: CellValue[][]) {
  async function* source() {
    let line = 0;
    for (const cells of rows) yield { line: ++line, cells };
  }
  return classifyRows(source());
}

const HR_HEADER = TEMPLATE_CATALOG.find((t) => t.id === "hr_aux")!.columns.map((c) => c.name);

describe("a stored spreadsheet's class", () => {
  it("is HR by its header: the HR template, an HR grid export, a column named CPF", async () => {
    expect(await classOf([["", ""], HR_HEADER])).toEqual({ dataClass: "hr", by: "hr-template" });
    expect(
      await classOf([["Filial", "Nome", "Vendas serviços", "_id", "_rev", "_orig", "_portal:rh?filial=X"]]),
    ).toEqual({ dataClass: "hr", by: "hr-export" });
    expect(await classOf([["Colaborador", "CPF do colaborador"]])).toEqual({ dataClass: "hr", by: "cpf-column" });
  });

  it("is plain for another grid's export and for a file with nothing of HR", async () => {
    expect(await classOf([["SKU", "Quantity", "_id", "_rev", "_orig", "_portal:plan?dateStart=2026-01-01"]])).toEqual({
      dataClass: "plain",
      by: "no-hr-sign",
    });
    expect(
      await classOf([
        ["sku", "valor"],
        ["A", 10],
      ]),
    ).toEqual({ dataClass: "plain", by: "no-hr-sign" });
    expect(await classOf([])).toEqual({ dataClass: "plain", by: "no-hr-sign" });
  });

  it("is HR when one cell of the first rows is a CPF written as people write it, or masked", async () => {
    for (const cpf of ["529.982.247-25", "529982247-25", "529 982 247 25", "***.982.247-**", "111.111.111-11"])
      expect(
        await classOf([
          ["a", "b"],
          ["x", cpf],
        ]),
        cpf,
      ).toEqual({ dataClass: "hr", by: "cpf-column" });
  });

  it("is HR when half or more of a column's values are 11 digits with valid check digits", async () => {
    expect(await classOf([["doc"], ["52998224725"], [11144477735], ["12345678900"]])).toEqual({
      dataClass: "hr",
      by: "cpf-column",
    });
  });

  it("is not HR for a column of 11-digit phone numbers, valid CPFs only by chance", async () => {
    const phones = Array.from({ length: 100 }, (_, i) => [`119${String(87654300 + i).padStart(8, "0")}`]);
    const valid = phones.filter(([p]) => cpfCell(p) === "digits").length;
    expect(valid).toBeLessThan(10);
    expect(await classOf([["telefone"], ...phones])).toEqual({ dataClass: "plain", by: "no-hr-sign" });
    expect(cpfCell("2026-02-01")).toBeNull();
    expect(cpfCell("1.250.000,50")).toBeNull();
    expect(cpfCell(21.5)).toBeNull();
  });

  it(`reads ${CLASSIFY_SAMPLE_ROWS} rows after the header for CPFs, no more`, async () => {
    const filler = Array.from({ length: CLASSIFY_SAMPLE_ROWS - 1 }, (_, i) => ["x", String(i)]);
    expect(await classOf([["a", "b"], ...filler, ["y", "529.982.247-25"]])).toMatchObject({ dataClass: "hr" });
    expect(await classOf([["a", "b"], ...filler, ["z", "1"], ["y", "529.982.247-25"]])).toMatchObject({
      dataClass: "plain",
    });
  });

  it("knows what the worker read as HR: the HR template and the HR grid's export, nothing else", () => {
    expect(readAsHr("hr_aux")).toBe(true);
    expect(readAsHr("rh")).toBe(true);
    expect(readAsHr("product")).toBe(false);
    expect(readAsHr("plan")).toBe(false);
    expect(readAsHr(undefined)).toBe(false);
  });
});
