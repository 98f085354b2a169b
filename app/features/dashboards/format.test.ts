import { describe, expect, it } from "vitest";
import { type ChartRow, columnKeys, formatCompact, formatLabel, formatNumber, humanize, seriesKeys } from "./format";

describe("pt-BR chart formats", () => {
  it("formats numbers with pt-BR separators", () => {
    expect(formatNumber(1234567)).toBe("1.234.567");
    expect(formatNumber(1234.5)).toBe("1.234,5");
    expect(formatNumber(0.126)).toBe("0,13");
    expect(formatCompact(2_500_000)).toBe("2,5\u00a0mi");
    expect(formatCompact(950)).toBe("950");
  });

  it("reads ISO days, months and instants as pt-BR dates", () => {
    expect(formatLabel("2025-03-07")).toBe("07/03/2025");
    expect(formatLabel("2025-03-07T00:00:00.000Z")).toBe("07/03/2025");
    expect(formatLabel("2025-03-07T14:30:00.000Z")).toBe("07 mar 25 11:30:00");
    expect(formatLabel("2025-01")).toBe("jan/2025");
    expect(formatLabel("Varejo")).toBe("Varejo");
    expect(formatLabel(null)).toBe("—");
    expect(formatLabel(true)).toBe("Sim");
  });

  it("finds series and columns of result rows", () => {
    const rows: ChartRow[] = [
      { label: "2025-01", ok: 1, nok: 2 },
      { label: "2025-02", ok: 3, extra: "x", nok: 1, total: 4 },
    ];
    expect(seriesKeys(rows)).toEqual(["ok", "nok", "total"]);
    expect(columnKeys(rows)).toEqual(["label", "ok", "nok", "extra", "total"]);
    expect(humanize("em_andamento")).toBe("Em andamento");
  });
});
