import { boardTexts } from "~/features/forecast/cycle/board-texts";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { preparersTexts } from "~/features/forecast/preparers/texts";
import { messages } from "~/messages";
import { FORECAST_CYCLE, FORECAST_CYCLE_EVENTS } from "~/models/forecast-cycle.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { NAV_LABELS } from "~/navigation-labels";
import { assignPreparer, insertScenario } from "../../app/features/forecast/fixtures";
import { withDb } from "./database";
import { expect, test } from "./fixtures";
import { signIn } from "./sign-in";

/**
 * "Meus centros de custo" as a menu entry, with the reason of a return (the demo's planner, gold@demo.local, named
 * Gabriela Ouro), and the preparers' screen finding a person by name: "Gabriela" is sent (the field is text, not
 * e-mail), matches several people who may prepare and offers them to pick; a full name adds at once.
 */

const YEAR = new Date().getUTCFullYear();
const RF = `RF2 ${YEAR}`;
const RETURNED = "CC9301 - Meu Devolvido";
const PREPARING = "CC9302 - Meu Em Preparação";
const UNASSIGNED = "CC9303 - Sem Responsável";
const REASON = "Revise o aluguel de março";
const REVIEWER = { email: "sysadmin@demo.local", name: "Sônia Administradora" };
/** A second Gabriela who may prepare, so that "Gabriela" names several people whatever the seed generated. */
const OTHER_GABRIELA = { email: "gabriela.ourives@e2e.test", name: "Gabriela Ourives" };

test.scoped({
  appEnv: { PORTAL_TODAY: `${YEAR}-02-15` },
  appSetup: {
    run: (app) =>
      withDb(app, async (db) => {
        for (const cc of [RETURNED, PREPARING, UNASSIGNED]) await insertScenario(db, RF, cc);
        await assignPreparer(db, "gold@demo.local", RETURNED, PREPARING);
        const at = new Date();
        await db.collection(FORECAST_CYCLE).insertOne({
          rf: RF,
          cost_center_concat: RETURNED,
          state: "returned",
          changed_at: at,
          changed_by: REVIEWER.email,
          changed_by_name: REVIEWER.name,
          submitted_by: "gold@demo.local",
          submitted_at: new Date(at.getTime() - 60_000),
          preparers_at_submission: ["gold@demo.local"],
        });
        await db.collection(FORECAST_CYCLE_EVENTS).insertOne({
          rf: RF,
          cost_center_concat: RETURNED,
          action: "return",
          from: "submitted",
          to: "returned",
          at,
          by: REVIEWER.email,
          name: REVIEWER.name,
          comment: REASON,
        });
        await db.collection(USER_PERMISSIONS).insertOne({
          user: OTHER_GABRIELA.email,
          name: OTHER_GABRIELA.name,
          type: "USER GOLD",
          stores: [],
          createdAt: at,
        });
      }),
  },
});

test("the preparer opens Meus centros de custo from the menu and reads why a cost centre was returned", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  const entry = page
    .getByRole("navigation", { name: messages.mainNavigation })
    .getByRole("link", { name: NAV_LABELS.forecastMine });
  await entry.click();
  await page.waitForURL((url) => url.pathname === "/ij/forecast_meus_centros");
  await page.getByRole("heading", { level: 1, name: boardTexts.mineTitle }).waitFor();
  expect(await entry.getAttribute("aria-current")).toBe("page");

  const returned = await page.getByRole("row", { name: new RegExp(RETURNED) }).innerText();
  expect(returned).toContain("Devolvido");
  expect(returned).toContain(REASON);
  expect(returned).toContain(REVIEWER.name);
  const preparing = await page.getByRole("row", { name: new RegExp(PREPARING) }).innerText();
  expect(preparing).toContain("Em preparação");
  expect(preparing).not.toContain(REASON);
  expect(await page.getByRole("row", { name: new RegExp(UNASSIGNED) }).count()).toBe(0);

  // The review's filter lists the same, with the reason too; each cost centre opens its review.
  await page.goto("/ij/report_create_schneider");
  const mine = page.getByRole("region", { name: boardTexts.mineTitle });
  expect(await mine.getByRole("row", { name: new RegExp(RETURNED) }).innerText()).toContain(REASON);
  await mine.getByRole("link", { name: RETURNED }).click();
  await page.waitForURL((url) => url.pathname === reviewPath(RF, RETURNED));
});

test("the preparers' screen finds a person by name: several are offered to pick, one full name adds at once", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "sysadmin@demo.local");
  await page.goto(`/ij/forecast_preparers?q=${encodeURIComponent("CC9303")}`);
  const field = page.getByRole("combobox", { name: preparersTexts.emailLabel(UNASSIGNED) });
  const row = page.getByRole("row", { name: new RegExp(UNASSIGNED) });
  const add = row.getByRole("button", { name: preparersTexts.addButton, exact: true });

  // A first name alone: the browser sends it, and the server lists the people it matches.
  await field.fill("Gabriela");
  await add.click();
  const choices = page.getByRole("form", { name: preparersTexts.choicesLabel(UNASSIGNED) });
  await choices.waitFor();
  const offered = await choices.getByRole("button").allInnerTexts();
  expect(offered).toContain(preparersTexts.pickChoice("Gabriela Ouro", "gold@demo.local"));
  expect(offered).toContain(preparersTexts.pickChoice(OTHER_GABRIELA.name, OTHER_GABRIELA.email));
  await page
    .getByRole("alert")
    .filter({ hasText: preparersTexts.refused.severalNamed("Gabriela", offered.length) })
    .waitFor();
  await choices
    .getByRole("button", { name: preparersTexts.pickChoice(OTHER_GABRIELA.name, OTHER_GABRIELA.email) })
    .click();
  await page.getByText(preparersTexts.ok.added(OTHER_GABRIELA.email, UNASSIGNED)).waitFor();

  // A full name, typed loosely, is one person: added at once.
  await field.fill("  gabriela   OURO ");
  await add.click();
  await page.getByText(preparersTexts.ok.added("gold@demo.local", UNASSIGNED)).waitFor();
  expect(await row.innerText()).toContain("Gabriela Ouro");

  // A name no one who may prepare has is said so, beside the cost centre; an e-mail still works as before.
  await field.fill("Ninguém Com Este Nome");
  await add.click();
  await row
    .getByRole("alert")
    .filter({ hasText: preparersTexts.refused.noneNamed("Ninguém Com Este Nome") })
    .waitFor();
  expect(await page.getByRole("form", { name: preparersTexts.choicesLabel(UNASSIGNED) }).count()).toBe(0);
  await field.fill("silver@demo.local");
  await add.click();
  await row
    .getByRole("alert")
    .filter({ hasText: preparersTexts.refused.cannotEdit("silver@demo.local", "USER SILVER") })
    .waitFor();
});
