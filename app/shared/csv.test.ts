import { describe, expect, it } from "vitest";
import { csvCell } from "./csv";

describe("csvCell", () => {
  it("escapes text a spreadsheet would run as a formula, and quotes the delimiter, quotes and line breaks", () => {
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell("+55 11")).toBe("'+55 11");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@x")).toBe("'@x");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell('=HYPERLINK("a";"b")')).toBe(`"'=HYPERLINK(""a"";""b"")"`);
    expect(csvCell("a;b")).toBe('"a;b"');
  });

  it("leaves numbers as numbers: numeric values always, texts that are plain numbers too", () => {
    expect(csvCell(-7)).toBe("-7");
    expect(csvCell(-1e-7)).toBe("-1e-7");
    expect(csvCell(-1234.5, (v) => String(v).replace(".", ","))).toBe("-1234,5");
    expect(csvCell("-1.234,56")).toBe("-1.234,56");
    expect(csvCell("+12")).toBe("+12");
    expect(csvCell(null)).toBe("");
  });
});
