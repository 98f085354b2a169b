import axe from "axe-core";
import type { Page } from "playwright-core";

/**
 * axe-core's WCAG 2.1 A and AA scan of the page as it is now. axe's source goes into the document once (a page
 * scanned twice, e.g. with a dialog open, reuses it), and only the violations come back: a scan costs the browser
 * far less CPU than with @axe-core/playwright's builder, which injects the source twice per scan.
 */

const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const BLOCKING = new Set(["serious", "critical"]);

export type Finding = { page: string; rule: string; impact: string; targets: string[] };

type Violation = { id: string; impact: string | null; targets: string[] };

/** Every violation on `page` (any impact) is added to `all`; the serious and critical ones are returned. */
export async function scan(page: Page, label: string, all: Finding[]): Promise<Finding[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async (tags) => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const results = await run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations.map(
      (v): Violation => ({
        id: v.id,
        impact: v.impact ?? null,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
      }),
    );
  }, WCAG);
  const findings = violations.map((v) => ({
    page: label,
    rule: v.id,
    impact: v.impact ?? "unknown",
    targets: v.targets,
  }));
  all.push(...findings);
  return findings.filter((f) => BLOCKING.has(f.impact));
}

/** Visible form controls without an accessible name (a label, aria-label, aria-labelledby or title). */
export async function unlabelledControls(page: Page, label: string): Promise<string[]> {
  const names = await page.locator("input:not([type=hidden]), select, textarea").evaluateAll((controls) =>
    controls
      .filter((c) => (c as HTMLElement).offsetParent !== null || (c as HTMLElement).getClientRects().length > 0)
      .filter((c) => {
        const el = c as HTMLInputElement;
        return !(
          el.labels?.length ||
          el.getAttribute("aria-label")?.trim() ||
          el.getAttribute("aria-labelledby") ||
          el.getAttribute("title")?.trim()
        );
      })
      .map((c) => `${c.tagName.toLowerCase()}[name=${c.getAttribute("name") ?? ""}]`),
  );
  return names.map((n) => `${label}: ${n}`);
}
