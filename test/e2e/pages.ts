import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { messages } from "~/messages";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccount } from "~/seed/accounts";
import type { RunningApp } from "./harness";
import { signIn } from "./sign-in";

/**
 * Every page each demo account can reach, found the way the account finds them: the links of its side navigation
 * and header menu, plus the pages no menu links to (EXTRA_PAGES). The accessibility scan (a11y.e2e.ts) and the
 * layout check (layout.e2e.ts) walk these, so a screen another engineer adds to a menu is covered the day it
 * lands. Two accounts never get past the login (no type: "CONTATE SEU ADMIN"; first access: the new-password
 * form): their pages are those states of the login screen.
 */

/** Pages no menu links to; an account only visits those it may open (a 403 is skipped). */
export const EXTRA_PAGES = [
  "/user/config?create=1",
  "/repo/master-data/canal",
  "/repo/master-data/planejamento",
  "/repo/master-data?base=nok",
  "/captura/automacao",
  "/home",
  "/logout",
  "/pagina-que-nao-existe",
];

/** The login screen's states, seen before signing in. */
export const SIGNED_OUT_PAGES = ["/", "/?forgot=1", "/?expired=1&redirectTo=%2Frepo%2Fformat", "/recovery/123456", "/home", "/pagina-que-nao-existe"];

export type Visit = { account: string; path: string };

const menuLinks = async (page: Page) => {
  const side = page.getByRole("navigation", { name: messages.mainNavigation }).getByRole("link");
  const header = page.getByRole("navigation", { name: messages.userMenu }).getByRole("link");
  const hrefs = [...(await side.evaluateAll((links) => links.map((a) => a.getAttribute("href")))), ...(await header.evaluateAll((links) => links.map((a) => a.getAttribute("href"))))];
  // The side menu's fold link is no page of its own.
  return hrefs.filter((h): h is string => !!h && h.startsWith("/"));
};

/**
 * Signs `account` in on `page` and calls `visit` on each page it can reach (once each); for the two accounts that
 * cannot get past the login, on the login state they get. Returns the paths visited.
 */
export async function walkAccount(page: Page, app: RunningApp, account: DemoAccount, visit: (path: string) => Promise<void>): Promise<string[]> {
  await page.context().clearCookies();
  if (account.type === "" || account.mustChangePassword) {
    await page.goto("/");
    await page.getByLabel(messages.emailLabel, { exact: true }).fill(account.email);
    await page.getByLabel(messages.passwordLabel, { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: messages.loginButton, exact: true }).click();
    if (account.type === "") await page.getByRole("alert").filter({ hasText: messages.contactAdmin }).waitFor();
    else await page.getByRole("heading", { name: messages.firstAccessTitle }).waitFor();
    await visit(new URL(page.url()).pathname);
    return ["/"];
  }
  await signIn(page, app.baseURL, account.email);
  const paths = [...new Set([...(await menuLinks(page)), ...EXTRA_PAGES])];
  const visited: string[] = [];
  for (const target of paths) {
    const response = await page.goto(target);
    // A page the account may not open is no page of its; signed-in redirects (e.g. `/`) land on one that is.
    if (response?.status() === 403) continue;
    await page.locator("main").waitFor();
    visited.push(target);
    await visit(target);
  }
  return visited;
}

/** The accounts, by their e-mail's local part (for folder and test names). */
export const ACCOUNTS = DEMO_ACCOUNTS.map((account) => ({ account, name: account.email.split("@")[0] }));

/** test-artefacts/<kind>/…: screenshots and reports, kept out of git. */
export function artefactPath(...parts: string[]): string {
  const file = path.resolve("test-artefacts", ...parts);
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/** A file name for a page's path. */
export function slug(pagePath: string): string {
  return pagePath.replace(/^\//, "").replace(/[^A-Za-z0-9_-]+/g, "_") || "index";
}
