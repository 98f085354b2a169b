import { describe, expect, it } from "vitest";
import { NAV_LABELS } from "~/navigation";
import { generateDashboards } from "./dashboards";
import { Random } from "./random";

/**
 * The seeded dashboards are named after what they show, and no two entries of the side navigation differ only in
 * case: a dashboard is listed in the same group as the pages of the navigation (e.g. "Jobs executados").
 */
describe("seeded dashboard names", () => {
  const names = generateDashboards({
    random: new Random(1, "names"),
    scale: 1,
    reference: new Date("2026-11-01T00:00:00Z"),
    tenantId: "journey",
    bucket: "b",
  }).map((d) => d.panelLabel);
  const fold = (text: string) =>
    text
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .trim();

  it("are distinct from each other, ignoring case and accents", () => {
    expect(new Set(names.map(fold)).size).toBe(names.length);
  });

  it("are distinct from every label of the side navigation, ignoring case and accents", () => {
    const labels = new Set(Object.values(NAV_LABELS).map(fold));
    expect(names.filter((name) => labels.has(fold(name)))).toEqual([]);
  });
});
