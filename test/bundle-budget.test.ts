import { describe, expect, test } from "vitest";
import {
  budgetOf,
  type ClientManifest,
  DASHBOARD_BUDGET,
  kB,
  PAGE_BUDGET,
  readClientBuild,
  routeFigures,
  routeFiles,
} from "../bench/bundle/manifest";

/**
 * The JS a full page load fetches, per the built manifest (bench/bundle/manifest.ts): every route within 110 kB gzip,
 * a native dashboard within 140 kB. What Chromium fetches beyond the manifest is measured by bench/bundle/chromium.ts.
 */
describe("JS every page loads", () => {
  test("every route of the build is within its budget", () => {
    const build = readClientBuild();
    if (!build) throw new Error("build/client is missing: run `npm run build` first (`npm run test:unit` does).");
    const over = routeFigures(build)
      .filter((r) => r.bytes > r.budget)
      .map((r) => `${r.route}: ${kB(r.bytes)} kB > ${kB(r.budget)} kB`);
    expect(over).toEqual([]);
  });

  test("a route counts the entry, its layouts and every static import of the chain", () => {
    const manifest: ClientManifest = {
      entry: { module: "/assets/entry.js", imports: ["/assets/react.js"] },
      routes: {
        root: { id: "root", module: "/assets/root.js", imports: ["/assets/react.js", "/assets/nav.js"] },
        "routes/ij": { id: "routes/ij", parentId: "root", module: "/assets/ij.js" },
        "routes/ij.plan": {
          id: "routes/ij.plan",
          parentId: "routes/ij",
          module: "/assets/plan.js",
          imports: ["/assets/table.js"],
        },
        "routes/home": { id: "routes/home", parentId: "root", module: "/assets/home.js" },
      },
    };
    expect([...routeFiles(manifest, "routes/ij.plan")].sort()).toEqual(
      [
        "/assets/entry.js",
        "/assets/react.js",
        "/assets/root.js",
        "/assets/nav.js",
        "/assets/ij.js",
        "/assets/plan.js",
        "/assets/table.js",
      ].sort(),
    );
    expect(routeFiles(manifest, "routes/home").has("/assets/table.js")).toBe(false);
  });

  test("a native dashboard and its child routes have their budget; every other page 110 kB", () => {
    expect(budgetOf("routes/ij.painel.$id")).toBe(DASHBOARD_BUDGET);
    expect(budgetOf("routes/ij.painel.$id.embed-url")).toBe(DASHBOARD_BUDGET);
    const review = "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
    expect(budgetOf(review)).toBe(PAGE_BUDGET);
    expect(budgetOf(`${review}.history`)).toBe(PAGE_BUDGET);
    expect(budgetOf("routes/ij.report_preview_schneider")).toBe(PAGE_BUDGET);
    expect(budgetOf("routes/ij.plan_edit")).toBe(PAGE_BUDGET);
    expect(budgetOf("root")).toBe(PAGE_BUDGET);
  });
});
