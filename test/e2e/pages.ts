import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { messages } from "~/messages";
import { EXPLORER_DOCUMENTS } from "~/models/explorer.server";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { HR_AUX } from "~/models/hr.server";
import { LEDGER } from "~/models/ledger.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccount } from "~/seed/accounts";
import { monthKey, monthOfDate } from "~/shared/months";
import { withDb } from "./database";
import type { RunningApp } from "./harness";
import { signIn } from "./sign-in";

/**
 * Every page each demo account can reach, found the way the account finds them: the links of its side navigation
 * and header menu, plus the pages no menu links to (EXTRA_PAGES). The accessibility scan and the layout check
 * walk these (walk.e2e.ts), so a screen another engineer adds to a menu is covered the day it lands. Two accounts never get past the login (no type: "CONTATE SEU ADMIN"; first access: the new-password
 * form): their pages are those states of the login screen.
 */

/** Pages no menu links to; an account only visits those it may open (a 403 is skipped). */
export const EXTRA_PAGES = [
  "/user/config?create=1",
  "/repo/master-data/canal",
  "/repo/master-data/planejamento",
  "/repo/master-data?base=nok",
  "/captura/automacao",
  "/ij/forecast_versoes",
  "/user/tokens",
  "/user/visoes",
  "/home",
  "/logout",
  "/pagina-que-nao-existe",
];

/**
 * The spec-001 screens behind a filter or a parameter, with real values from the seeded database: the HR editor of a
 * branch, the forecast grid of a scenario and cost centre, the planning and report-preview grids, the cockpit table,
 * the FP&A report, the explorer's results and one document.
 */
export async function deepPages(app: Pick<RunningApp, "mongoUri" | "databaseName">): Promise<string[]> {
  return withDb(app, async (db) => {
    const pages = [
      "/ij/plan_edit?chanel=WHOLESALES&dateStart=2000-01-01&dateEnd=2030-12-30",
      "/ij/explorer?search=relatorio",
    ];
    const hr = await db
      .collection(HR_AUX)
      .find({}, { projection: { filial_nome: 1, mes_apur: 1 } })
      .sort({ mes_apur: -1 })
      .limit(1)
      .next();
    if (hr) {
      const month = monthKey(monthOfDate(hr.mes_apur as Date));
      pages.push(`/ij/rh_edit/${encodeURIComponent(String(hr.filial_nome))}?mes_inicio=${month}&mes_fim=${month}`);
    }
    // A cost centre the demo's planner prepares, so that the planner's walk reaches the review (a preparer reads only
    // theirs); the reviewers read every one.
    const prepared = await db.collection(FORECAST_PREPARERS).findOne({ user: "gold@demo.local" });
    const cell = await db
      .collection(FORECAST)
      .findOne(
        { rf: { $ne: "actual" }, ...(prepared ? { cost_center_concat: prepared.cost_center_concat } : {}) },
        { projection: { rf: 1, cost_center_concat: 1, account_concat: 1 } },
      );
    if (cell) {
      const review = reviewPath(String(cell.rf), String(cell.cost_center_concat));
      pages.push(
        review,
        `${review}/distribuir?conta=${encodeURIComponent(String(cell.account_concat))}&total=100&modo=igual`,
        `${review}/alteracoes`,
      );
    }
    const ledger = await db
      .collection(LEDGER)
      .find({}, { projection: { businessUnitID: 1, month: 1 } })
      .sort({ month: -1 })
      .limit(1)
      .next();
    if (ledger) {
      const period = monthKey(monthOfDate(ledger.month as Date));
      pages.push(
        `/ij/cockpit_preview?unit=${ledger.businessUnitID}&period=${period}&report=BALANCE_SHEET`,
        `/ij/report_save?company=${ledger.businessUnitID}&period=${period}`,
      );
    }
    const document = await db.collection(EXPLORER_DOCUMENTS).findOne({}, { projection: { _id: 1 } });
    if (document) pages.push(`/ij/explorer/${String(document._id)}`);
    return pages;
  });
}

/** The two widths every page must fit: a 1366 px laptop and a 390 px phone. */
export const WIDTHS = [
  { name: "1366", width: 1366, height: 768 },
  { name: "390", width: 390, height: 844 },
] as const;

/** The login screen's states, seen before signing in. */
export const SIGNED_OUT_PAGES = [
  "/",
  "/?forgot=1",
  "/?expired=1&redirectTo=%2Frepo%2Fformat",
  "/recovery/123456",
  "/home",
  "/pagina-que-nao-existe",
  "/api/docs",
];

export type Visit = { account: string; path: string };

const menuLinks = async (page: Page) => {
  const side = page.getByRole("navigation", { name: messages.mainNavigation }).getByRole("link");
  const header = page.getByRole("navigation", { name: messages.userMenu }).getByRole("link");
  const hrefs = [
    ...(await side.evaluateAll((links) => links.map((a) => a.getAttribute("href")))),
    ...(await header.evaluateAll((links) => links.map((a) => a.getAttribute("href")))),
  ];
  // The side menu's fold link is no page of its own.
  return hrefs.filter((h): h is string => !!h && h.startsWith("/"));
};

/**
 * Signs `account` in on `page` and calls `visit` on each page it can reach (once each); for the two accounts that
 * cannot get past the login, on the login state they get. Returns the paths visited.
 */
export async function walkAccount(
  page: Page,
  app: RunningApp,
  account: DemoAccount,
  visit: (path: string) => Promise<void>,
): Promise<string[]> {
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
  const paths = [...new Set([...(await menuLinks(page)), ...EXTRA_PAGES, ...(await deepPages(app))])];
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
