import type { Page } from "playwright-core";
import { describe } from "vitest";
import { messages } from "~/messages";
import { scan } from "./axe";
import { expect, test } from "./fixtures";
import { signIn, waitForHydration } from "./sign-in";

/**
 * Accessibility beyond the page walk: the dialogs keep the keyboard inside until they close, and the page
 * behind is inert while they are open. Every page of every demo account is scanned by walk.e2e.ts.
 */

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
        expect(
          await dialog.evaluate((d) => d.contains(document.activeElement)),
          `${dialogName}: ${key} ×${i + 1}`,
        ).toBe(true);
      }
    }
    // And the page behind is inert for assistive technology while it is open.
    const blocking = await scan(page, `${dialogName} (open)`, []);
    expect(blocking).toEqual([]);
  }

  test("the session-expired notice, the forgot-password dialog, the create-user and tier-confirmation dialogs", async ({
    app,
    page,
  }) => {
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
