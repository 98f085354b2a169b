import { matchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { filterPath, historyPath, resolveCostCenter, reviewPath, sortScenarios } from "./forecast-filter";

const COST_CENTERS = [
  "CC1001 - Marketing",
  "CC1002 - Vendas Varejo",
  "CC1003 - Vendas Atacado",
  "CC1018 - P&D Cosméticos",
];

describe("reviewPath", () => {
  // What the router does with the path: decode it, match the route, hand the parameters to the loader.
  const params = (path: string) =>
    matchRoutes([{ path: "/ij/report_preview_edit_schneider/:rf/:cost_center_concat" }], path)?.[0].params;

  it.each([
    ["RF1 2020", "CC1001 - Marketing"],
    ["RF2 2027", "CC1018 - P&D Cosméticos"],
    ["RF3 2026", "CC2001 - Compras / Suprimentos"],
    ["RF4 2026", "CC3001 - 50% #1 ?x=y"],
  ])("round-trips %j and %j through the URL", (rf, costCenter) => {
    const path = reviewPath(rf, costCenter);
    expect(path).not.toMatch(/ /);
    expect(params(path)).toEqual({ rf, cost_center_concat: costCenter });
  });

  it("spells RF1 2020 with %20, as the spec's example", () => {
    expect(reviewPath("RF1 2020", "CC1001 - Marketing")).toBe(
      "/ij/report_preview_edit_schneider/RF1%202020/CC1001%20-%20Marketing",
    );
  });

  it("puts the history's cell in the query", () => {
    const url = new URL(historyPath("RF1 2020", "CC1 - A&B", "4101001 - Salários & Cia", "2020-11"), "http://x");
    expect(url.pathname).toBe("/ij/report_preview_edit_schneider/RF1%202020/CC1%20-%20A%26B/history");
    expect(Object.fromEntries(url.searchParams)).toEqual({ account: "4101001 - Salários & Cia", month: "2020-11" });
  });
});

describe("filterPath", () => {
  it("preselects the choices it is given", () => {
    expect(filterPath()).toBe("/ij/report_create_schneider");
    expect(filterPath({ rf: "RF1 2020" })).toBe("/ij/report_create_schneider?rf=RF1+2020");
    expect(
      new URL(filterPath({ rf: "RF1 2020", cost_center_concat: "CC1 - A&B" }), "http://x").searchParams.get(
        "cost_center",
      ),
    ).toBe("CC1 - A&B");
  });
});

describe("resolveCostCenter (the searchable field)", () => {
  it.each([
    ["CC1001 - Marketing", "CC1001 - Marketing"],
    ["cc1001 - marketing", "CC1001 - Marketing"],
    ["  marketing ", "CC1001 - Marketing"],
    ["cosmeticos", "CC1018 - P&D Cosméticos"],
    ["1002", "CC1002 - Vendas Varejo"],
  ])("finds %j", (text, costCenter) => {
    expect(resolveCostCenter(text, COST_CENTERS)).toEqual({ kind: "found", cost_center_concat: costCenter });
  });

  it("says when the text is empty, matches nothing or several", () => {
    expect(resolveCostCenter("   ", COST_CENTERS)).toEqual({ kind: "empty" });
    expect(resolveCostCenter("Jurídico", COST_CENTERS)).toEqual({ kind: "none" });
    expect(resolveCostCenter("vendas", COST_CENTERS)).toEqual({ kind: "ambiguous", count: 2 });
  });
});

describe("sortScenarios", () => {
  it("puts the latest anchor first (RF1 of a year is anchored the October before)", () => {
    expect(sortScenarios(["RF2 2026", "RF1 2026", "RF4 2025", "RF1 2027", "RF3 2026"])).toEqual([
      "RF1 2027",
      "RF3 2026",
      "RF2 2026",
      "RF1 2026",
      "RF4 2025",
    ]);
  });
});
