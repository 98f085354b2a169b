import { describe, expect, it } from "vitest";
import { columnScrollLeft, scrollScript, scrollToColumn } from "./grid-scroll";

/**
 * The sideways scroll the grid opens at: the first editable month right beside the pinned columns. The page's script
 * and the browser's function compute the same place (a grid measured here: a pinned 300 px column, months of 112 px).
 */

type Box = HTMLElement & { scrollLeft: number };

function grid(pinnedWidth: number, scrollLeft = 0): Box {
  const box = { scrollLeft, clientLeft: 1 } as unknown as Box;
  const cells = ["acc", "m_2026-01", "m_2026-02", "m_2026-03"].map((id, i) => ({
    id,
    classList: { contains: (name: string) => name === "is-pinned" && i === 0 },
    // Where each cell is on screen now (the box starts at x = 20, its content scrolled by scrollLeft).
    getBoundingClientRect: () => ({
      left: 21 + (i === 0 ? box.scrollLeft : pinnedWidth + (i - 1) * 112) - box.scrollLeft,
      width: i === 0 ? pinnedWidth : 112,
    }),
  }));
  const row = { children: cells };
  for (const cell of cells) Object.assign(cell, { parentElement: row });
  Object.assign(box, {
    getBoundingClientRect: () => ({ left: 20 }),
    querySelector: (selector: string) => cells.find((c) => selector === `[data-column="${c.id}"]`) ?? null,
  });
  return box;
}

describe("the grid's first editable month in view", () => {
  it("scrolls the months before it out of view, beside the pinned column (whatever its width)", () => {
    expect(columnScrollLeft(grid(300), "m_2026-03")).toBe(224);
    expect(columnScrollLeft(grid(175), "m_2026-03")).toBe(224);
    expect(columnScrollLeft(grid(300), "m_2026-01")).toBe(0);
    expect(columnScrollLeft(grid(300), "m_2030-01")).toBeNull();
  });

  it("the page's script, run before the grid hydrates, scrolls where the browser's function does", () => {
    for (const pinned of [300, 175]) {
      const viaScript = grid(pinned);
      new Function("document", scrollScript("m_2026-03"))({ currentScript: { previousElementSibling: viaScript } });
      const viaFunction = grid(pinned);
      scrollToColumn(viaFunction, "m_2026-03");
      expect(viaScript.scrollLeft).toBe(224);
      expect(viaFunction.scrollLeft).toBe(224);
    }
    expect(scrollScript("m_</script>")).not.toContain("</script>");
  });

  it("leaves a grid the page's script already scrolled (or the user did) where it is", () => {
    const box = grid(300, 50);
    scrollToColumn(box, "m_2026-03");
    expect(box.scrollLeft).toBe(50);
  });
});
