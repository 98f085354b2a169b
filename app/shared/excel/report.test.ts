import { describe, expect, it } from "vitest";
import { type RoundTripReport, reportCsv, reportHref } from "./round-trip.server";

/** The round trip's report of conflicts and refusals, downloaded as a CSV the user opens in Excel. */
describe("the Excel round trip's CSV report", () => {
  const report: RoundTripReport = {
    changed: 1,
    conflicts: [{ line: 3, row: "SKU1", column: "Volume", fileValue: "=1+2", currentValue: "-1.234,56", by: null }],
    refused: [
      { line: 4, row: "@SKU2", column: "Preço", value: '=HYPERLINK("http://evil.test";"x")', reason: "Valor inválido" },
      { line: 5, row: "SKU3", column: "Preço", value: "-7", reason: "+ não permitido" },
      { line: 6, row: "SKU4", column: "Preço", value: "-2+3+cmd|' /C calc'!A0", reason: "\t=1" },
    ],
  };

  it("writes cells a spreadsheet would run as formulas as text, and leaves numbers as numbers", () => {
    const lines = reportCsv(report)
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n")
      .slice(1);
    expect(lines).toEqual([
      "Conflito;3;SKU1;Volume;'=1+2;-1.234,56;",
      `Recusado;4;'@SKU2;Preço;"'=HYPERLINK(""http://evil.test"";""x"")";;Valor inválido`,
      "Recusado;5;SKU3;Preço;-7;;'+ não permitido",
      "Recusado;6;SKU4;Preço;'-2+3+cmd|' /C calc'!A0;;'\t=1",
    ]);
    expect(decodeURIComponent(reportHref(report)!.replace(/^data:text\/csv;charset=utf-8,/, ""))).toBe(
      reportCsv(report),
    );
  });
});
