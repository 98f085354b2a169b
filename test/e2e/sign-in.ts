import type { Page } from "playwright-core";
import { messages } from "~/messages";

export const DEMO_PASSWORD = "Portal#2026";

/**
 * Signs in through the login screen of `/` and waits until the browser has left it (the landing page of
 * the account's type) and the signed-in header menu is shown (the URL can change a moment before the
 * root's data is rendered). Fails with the page's alert text when the sign-in is refused.
 */
export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  password: string = DEMO_PASSWORD,
): Promise<void> {
  const origin = new URL(baseUrl).origin;
  await page.goto(`${origin}/`);
  await page.getByLabel(messages.emailLabel, { exact: true }).fill(email);
  await page.getByLabel(messages.passwordLabel, { exact: true }).fill(password);
  await Promise.all([
    page
      .waitForURL((url) => url.origin === origin && url.pathname !== "/", { timeout: 15_000 })
      .catch(async (error: unknown) => {
        const alert = await page
          .getByRole("alert")
          .first()
          .textContent()
          .catch(() => null);
        throw new Error(`signIn(${email}) stayed on /${alert ? `: ${alert}` : ""}`, { cause: error });
      }),
    page.getByRole("button", { name: messages.loginButton, exact: true }).click(),
  ]);
  await page.getByRole("navigation", { name: messages.userMenu }).waitFor({ timeout: 15_000 });
}

/**
 * Resolves once React has hydrated the page's first form (React marks the DOM nodes it owns). Until then a
 * submit is a plain document POST, so a test of the browser-side validation must wait for this.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const form = document.querySelector("form");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactFiber$"));
  });
}
