import { describe, expect, it } from "vitest";
import { CELL_FRAGMENT, cellHref, linkedCell } from "./cell-link";

const params = (href: string) => new URL(href, "http://x").searchParams;

describe("a grid's link to one of its cells", () => {
  it("names the row and month in ?celula=, the history when asked, and ends at the cell's fragment", () => {
    const href = cellHref("/ij/g/RF2%202027/CC1", "4101001 - Salários e Ordenados", "2027-03", { history: true });
    expect(href).toBe(
      `/ij/g/RF2%202027/CC1?celula=4101001%20-%20Sal%C3%A1rios%20e%20Ordenados%3A2027-03&historico=1#${CELL_FRAGMENT}`,
    );
    expect(linkedCell(params(href))).toEqual({
      key: "4101001 - Salários e Ordenados",
      month: "2027-03",
      history: true,
    });
    expect(linkedCell(params(cellHref("/g", "A", "2027-12")))).toEqual({ key: "A", month: "2027-12", history: false });
  });

  it("reads the month after the last colon: a key may hold one", () => {
    expect(linkedCell(params(cellHref("/g", "3.1:01 - Salários", "2026-11")))?.key).toBe("3.1:01 - Salários");
  });

  it("reads no cell from a missing, malformed or oversized parameter", () => {
    for (const value of [
      "",
      "A",
      ":2027-03",
      "A:2027-13",
      "A:2027-3",
      "A:27-03",
      " A:2027-03",
      `${"x".repeat(301)}:2027-03`,
    ])
      expect(linkedCell(new URLSearchParams({ celula: value })), value).toBeNull();
    expect(linkedCell(new URLSearchParams())).toBeNull();
  });
});
