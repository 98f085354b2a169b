import type { Page } from "playwright-core";
import { GUIDE_SECTIONS } from "~/features/api-tokens/api-guide-facts";
import { guideTexts } from "~/features/api-tokens/guide-texts";
import { tokenTexts } from "~/features/api-tokens/texts";
import { expect, test, withoutJavaScript } from "./fixtures";
import { signIn, waitForHydration } from "./sign-in";

/**
 * /user/tokens as a user meets it: a new token's secret shown whole (every underscore, wrapped on a phone, selected
 * with one click) and the new-token form empty again after creating, with and without JavaScript; with it, "Copiar
 * token" puts the secret on the clipboard and says "Copiado". SYSTEM ADMIN makes a SCIM token without expiry beside the
 * absolute SCIM base URL; /api/docs is the developer guide, section by section.
 */

const SECRET = /^jpt_[A-Za-z0-9_-]{43}$/;

/** Fills and posts the new-token form. */
async function createToken(page: Page, name: string): Promise<void> {
  await page.getByLabel(tokenTexts.nameLabel, { exact: true }).fill(name);
  await page.getByLabel(tokenTexts.daysLabel, { exact: true }).fill("30");
  await page.getByLabel(tokenTexts.scopes.write, { exact: true }).check();
  await page.getByRole("button", { name: tokenTexts.create, exact: true }).click();
}

/** The secret's element as laid out: its text, whether anything overflows it, and on how many lines it sits. */
function measureSecret(page: Page) {
  return page.locator("#token-secret").evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    return {
      tag: element.tagName.toLowerCase(),
      text: element.textContent ?? "",
      overflowsX: element.scrollWidth > element.clientWidth,
      overflowsY: element.scrollHeight > element.clientHeight,
      right: element.getBoundingClientRect().right,
      lines,
    };
  });
}

/** The form shows its defaults: no name, 90 days, read only. */
async function expectEmptyForm(page: Page): Promise<void> {
  expect(await page.getByLabel(tokenTexts.nameLabel, { exact: true }).inputValue()).toBe("");
  expect(await page.getByLabel(tokenTexts.daysLabel, { exact: true }).inputValue()).toBe("90");
  expect(await page.getByLabel(tokenTexts.scopes.read, { exact: true }).isChecked()).toBe(true);
  expect(await page.getByLabel(tokenTexts.scopes.write, { exact: true }).isChecked()).toBe(false);
}

test("with JavaScript: the secret whole, copied with one button, and the form empty again", async ({ app, page }) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.baseURL });
  await signIn(page, app.baseURL, "bronze@demo.local");
  await page.goto("/user/tokens");
  await waitForHydration(page);

  await createToken(page, "ERP com JavaScript");
  await page.getByRole("heading", { name: tokenTexts.createdTitle }).waitFor();
  const first = await measureSecret(page);
  expect(first.tag).not.toBe("input");
  expect(first.text).toMatch(SECRET);
  expect(first).toMatchObject({ overflowsX: false, overflowsY: false });
  await expectEmptyForm(page);
  // The list shows the new token by its name and hint (the loader ran again), never its secret.
  await page.getByText(`ERP com JavaScript (…${first.text.slice(4, 10)})`, { exact: true }).waitFor();
  expect(await page.locator("table").innerText()).not.toContain(first.text);

  const copy = page.getByRole("button", { name: tokenTexts.copy, exact: true });
  await copy.click();
  await page.getByText(tokenTexts.copied, { exact: true }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.text);

  // A second token: its own secret, the form empty again, the last confirmation gone.
  await createToken(page, "Data warehouse");
  await page.locator("#token-secret").filter({ hasNotText: first.text }).waitFor();
  const second = await measureSecret(page);
  expect(second.text).toMatch(SECRET);
  expect(second.text).not.toBe(first.text);
  expect(await page.getByText(tokenTexts.copied, { exact: true }).count()).toBe(0);
  await expectEmptyForm(page);

  // On a phone (the width the layout walk checks) the secret wraps inside its box instead of running off it.
  await page.setViewportSize({ width: 390, height: 844 });
  const narrow = await measureSecret(page);
  expect(narrow).toMatchObject({ text: second.text, overflowsX: false, overflowsY: false });
  expect(narrow.lines).toBeGreaterThan(1);
  expect(narrow.right).toBeLessThanOrEqual(390);
});

test("without JavaScript: the page after the post shows the secret whole and selectable, and an empty form", async ({
  app,
  browser,
}) => {
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "silver@demo.local");
    await plain.goto("/user/tokens");
    await createToken(plain, "ERP sem JavaScript");
    await plain.getByRole("heading", { name: tokenTexts.createdTitle }).waitFor();
    const shown = await measureSecret(plain);
    expect(shown.tag).not.toBe("input");
    expect(shown.text).toMatch(SECRET);
    expect(shown).toMatchObject({ overflowsX: false, overflowsY: false });
    await expectEmptyForm(plain);
    // No button that could do nothing; one click selects the whole secret to copy by hand.
    expect(await plain.getByRole("button", { name: tokenTexts.copy, exact: true }).count()).toBe(0);
    await plain.locator("#token-secret").click();
    expect(await plain.evaluate(() => window.getSelection()?.toString())).toBe(shown.text);
  });
});

test("/api/docs: the developer guide, its sections reached from its contents", async ({ app, page }) => {
  await page.goto("/api/docs");
  const contents = page.getByRole("navigation", { name: guideTexts.contents });
  for (const id of GUIDE_SECTIONS) {
    const heading = page.getByRole("heading", { level: 2, name: guideTexts.sections[id], exact: true });
    await heading.waitFor();
    expect(await page.locator(`section#${id}`).count()).toBe(1);
    expect(await contents.getByRole("link", { name: guideTexts.sections[id], exact: true }).getAttribute("href")).toBe(
      `#${id}`,
    );
  }
  await contents.getByRole("link", { name: guideTexts.sections.scim, exact: true }).click();
  await page.waitForURL(/#scim$/);
  expect(await page.locator("#scim-base-url").innerText()).toBe(`${app.baseURL}/scim/v2`);
  await page.getByRole("heading", { name: guideTexts.scim.okta, exact: true }).waitFor();
  await page.getByRole("heading", { name: guideTexts.scim.entra, exact: true }).waitFor();
  expect(
    await page.locator("#tokens").getByRole("link", { name: guideTexts.tokens.createLink }).getAttribute("href"),
  ).toBe("/user/tokens");
  expect(await page.locator("#envio pre").innerText()).toContain(`PORTAL=${app.baseURL}`);
});

test("SYSTEM ADMIN makes a SCIM token without expiry, beside the absolute SCIM base URL", async ({ app, page }) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.baseURL });
  await signIn(page, app.baseURL, "sysadmin@demo.local");
  await page.goto("/user/tokens?scim=1");
  await waitForHydration(page);
  await page.getByRole("heading", { level: 1, name: tokenTexts.scimTitle }).waitFor();
  for (const line of tokenTexts.scimHelp) await page.getByText(line, { exact: true }).waitFor();
  const base = page.locator("#scim-base-url");
  expect(await base.innerText()).toBe(`${app.baseURL}/scim/v2`);
  await page.getByRole("button", { name: tokenTexts.copyScimBaseUrl, exact: true }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.baseURL}/scim/v2`);

  // Four lives, 90 days chosen unless SYSTEM ADMIN picks another.
  expect(await page.getByLabel(tokenTexts.scimLives["90"], { exact: true }).isChecked()).toBe(true);
  await page.getByLabel(tokenTexts.nameLabel, { exact: true }).fill("Entra ID sem expiração");
  await page.getByLabel(tokenTexts.scimLives.never, { exact: true }).check();
  await page.getByRole("button", { name: tokenTexts.create, exact: true }).click();
  await page.getByRole("heading", { name: tokenTexts.createdTitle }).waitFor();
  const secret = await page.locator("#token-secret").innerText();
  expect(secret).toMatch(/^jps_[A-Za-z0-9_-]{43}$/);
  await page.getByText(`${tokenTexts.columns.expiresAt}: ${tokenTexts.noExpiry}`, { exact: true }).waitFor();
  const row = page.getByRole("row").filter({ hasText: "Entra ID sem expiração" });
  await row.getByRole("cell", { name: tokenTexts.noExpiry, exact: true }).waitFor();

  // The token opens SCIM.
  const answer = await fetch(`${app.baseURL}/scim/v2/ServiceProviderConfig`, {
    headers: { Authorization: `Bearer ${secret}` },
  });
  expect(answer.status).toBe(200);
});
