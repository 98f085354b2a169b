import { describe, expect, it } from "vitest";
import { barRect, cartesianLayout, linePath, niceTicks, pieSlices, VIEW } from "./chart-geometry";

describe("chart geometry", () => {
  it("puts round ticks from zero past the largest value, and below zero for negative values", () => {
    expect(niceTicks(0, 27)).toEqual([0, 10, 20, 30]);
    expect(niceTicks(0, 1_234_567)).toEqual([0, 500_000, 1_000_000, 1_500_000]);
    expect(niceTicks(-4, 9)).toEqual([-5, 0, 5, 10]);
    expect(niceTicks(0, 0)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(0, 0.3)).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it("gives each row a band of the plot, the highest tick the top, and thins labels that would overlap", () => {
    const rows = Array.from({ length: 24 }, (_, i) => ({ label: `Categoria número ${i}`, value: i }));
    const layout = cartesianLayout(
      rows,
      ["value"],
      rows.map((r) => r.label),
    );
    expect(layout.bands).toHaveLength(24);
    expect(layout.bands[0].x).toBe(layout.plot.x);
    expect(layout.bands[23].x + layout.bands[23].width).toBeCloseTo(layout.plot.x + layout.plot.width);
    expect(layout.y(layout.ticks[layout.ticks.length - 1].value)).toBe(layout.plot.y);
    expect(layout.y(0)).toBe(layout.plot.y + layout.plot.height);
    expect(layout.labelEvery).toBeGreaterThan(1);
  });

  it("draws a negative bar down from zero, side by side with the other series", () => {
    const band = { x: 100, y: 0, width: 50, height: 200, center: 125 };
    expect(barRect(band, 0, 1, 150, 100)).toEqual({ x: 105, y: 100, width: 40, height: 50 });
    const second = barRect(band, 1, 2, 20, 100);
    expect(second.x).toBe(125);
    expect(second.y).toBe(20);
    expect(second.height).toBe(80);
  });

  it("breaks a line where a value is missing", () => {
    expect(linePath([{ x: 0, y: 1 }, { x: 2, y: 3 }, null, { x: 4, y: 5 }])).toBe("M0 1L2 3M4 5");
  });

  it("cuts the pie clockwise from twelve o'clock, leaving out values that are not positive", () => {
    const slices = pieSlices([3, null, 1, 0, -2]);
    expect(slices.map((s) => s.index)).toEqual([0, 2]);
    // The first slice is three quarters: from twelve o'clock round to nine, the long way.
    expect(slices[0].path).toMatch(/^M280 140L280 35A105 105 0 1 1 175 140Z$/);
    expect(slices[0].anchor).toBe("start");
    expect(slices[1].anchor).toBe("end");
    expect(pieSlices([5])[0].path).toContain(`${VIEW.width / 2 + 105} 140`);
    // A narrow card gets a smaller pie, so that the labels beside it fit.
    expect(pieSlices([5], 300)[0].path).toMatch(/^M75 140A75 75 /);
  });
});
