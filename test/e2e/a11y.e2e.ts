import AxeBuilder from "@axe-core/playwright";
import { writeFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe } from "vitest";
import { messages } from "~/messages";
import { expect, test } from "./fixtures";
import { ACCOUNTS, artefactPath, SIGNED_OUT_PAGES, walkAccount } from "./pages";
import { signIn, waitForHydration } from "./sign-in";

/**
 * Accessibility as the demo accounts meet the portal (issue 17): every page each of the nine accounts can reach
 * (its menus plus the pages no menu links to, test/e2e/pages.ts) passes an axe-core scan of WCAG 2.1 A and AA
 * with no serious or critical violation, every visible form control has an accessible name, and the dialogs keep
 * the keyboard inside until they close. The full findings of each scan (any impact) are written to
 * test-artefacts/a11y/.
 */

const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const BLOCKING = new Set(["serious", "critical"]);

type Finding = { page: string; rule: string; impact: string; targets: string[] };

/** The serious and critical violations of the page as it is now (and every finding, for the artefact). */
async function scan(page: Page, label: string, all: Finding[]): Promise<Finding[]> {
  // Legacy mode: the portal has no frames of its own, and this way the scan opens no extra page. Only the
  // violations are collected (the passes of a large page cost most of a scan's time).
  const results = await new AxeBuilder({ page }).withTags(WCAG).options({ resultTypes: ["violations"] }).setLegacyMode(true).analyze();
  const findings = results.violations.map((v) => ({ page: label, rule: v.id, impact: v.impact ?? "unknown", targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
  all.push(...findings);
  return findings.filter((f) => BLOCKING.has(f.impact));
}

/** Visible form controls without an accessible name (a label, aria-label, aria-labelledby or title). */
async function unlabelledControls(page: Page, label: string): Promise<string[]> {
  const names = await page.locator("input:not([type=hidden]), select, textarea").evaluateAll((controls) =>
    controls
      .filter((c) => (c as HTMLElement).offsetParent !== null || (c as HTMLElement).getClientRects().length > 0)
      .filter((c) => {
        const el = c as HTMLInputElement;
        return !(el.labels?.length || el.getAttribute("aria-label")?.trim() || el.getAttribute("aria-labelledby") || el.getAttribute("title")?.trim());
      })
      .map((c) => `${c.tagName.toLowerCase()}[name=${c.getAttribute("name") ?? ""}]`),
  );
  return names.map((n) => `${label}: ${n}`);
}

describe("axe-core: no serious or critical violation on any page, as each of the nine demo accounts", () => {
  for (const { account, name } of ACCOUNTS) {
    test(`${name}`, async ({ app, page }) => {
      const blocking: Finding[] = [];
      const all: Finding[] = [];
      const unlabelled: string[] = [];
      const visited = await walkAccount(page, app, account, async (path) => {
        blocking.push(...(await scan(page, path, all)));
        unlabelled.push(...(await unlabelledControls(page, path)));
      });
      writeFileSync(artefactPath("a11y", `${name}.json`), JSON.stringify({ visited, findings: all }, null, 2));
      expect(visited.length).toBeGreaterThan(0);
      expect(blocking).toEqual([]);
      expect(unlabelled).toEqual([]);
    }, 300_000);
  }

  test("signed out: the login screen's states (forgot password, session expired), recovery, /home and the 404 page", async ({ page }) => {
    const blocking: Finding[] = [];
    const all: Finding[] = [];
    const unlabelled: string[] = [];
    for (const path of SIGNED_OUT_PAGES) {
      await page.goto(path);
      await page.locator("main").waitFor();
      blocking.push(...(await scan(page, path, all)));
      unlabelled.push(...(await unlabelledControls(page, path)));
    }
    writeFileSync(artefactPath("a11y", "signed-out.json"), JSON.stringify({ visited: SIGNED_OUT_PAGES, findings: all }, null, 2));
    expect(blocking).toEqual([]);
    expect(unlabelled).toEqual([]);
  });
});

describe("dialogs keep the keyboard inside", () => {
  /** Tabs forward and backward `times` each way; every focused element must be inside the open dialog. */
  async function expectFocusTrapped(page: Page, dialogName: string, times = 8): Promise<void> {
    const dialog = page.getByRole("dialog", { name: dialogName });
    await dialog.waitFor();
    // Radix moves the focus into the dialog when it opens.
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    for (const key of ["Tab", "Shift+Tab"]) {
      for (let i = 0; i < times; i++) {
        await page.keyboard.press(key);
        expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `${dialogName}: ${key} ×${i + 1}`).toBe(true);
      }
    }
    // And the page behind is inert for assistive technology while it is open.
    const blocking = await scan(page, `${dialogName} (open)`, []);
    expect(blocking).toEqual([]);
  }

  test("the session-expired notice, the forgot-password dialog, the create-user and tier-confirmation dialogs", async ({ app, page }) => {
    await page.goto("/?expired=1");
    await waitForHydration(page);
    await expectFocusTrapped(page, messages.sessionExpiredTitle);

    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("link", { name: messages.forgotPasswordLink }).click();
    await expectFocusTrapped(page, messages.forgotPasswordTitle);
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });

    await signIn(page, app.baseURL, "useradmin@demo.local");
    await page.getByRole("link", { name: messages.createUser }).click();
    await expectFocusTrapped(page, messages.createUserTitle);
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });

    await page.context().clearCookies();
    await signIn(page, app.baseURL, "permiss@demo.local");
    await page.locator("main tbody tr").first().getByRole("button", { name: "Avançado", exact: true }).click();
    await expectFocusTrapped(page, messages.permissionConfirmTitle);
  });
});
