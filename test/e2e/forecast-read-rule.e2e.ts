import { reviewPath } from "~/features/forecast/forecast-filter";
import { uiTexts } from "~/shared/ui/texts";
import { assignPreparer, insertScenario } from "../../app/features/forecast/fixtures";
import { withDb } from "./database";
import { expect, test } from "./fixtures";
import { signIn } from "./sign-in";

/**
 * The forecast's one read rule in the browser (docs/decisions.md "Forecast cycle"): the demo's planner
 * (gold@demo.local, USER GOLD) opens the review of a cost centre they prepare; another's, typed into the address bar,
 * is the portal's 403 page in Portuguese, and the review's filter does not offer it. SYSTEM ADMIN opens both.
 */

const YEAR = new Date().getUTCFullYear();
const RF = `RF2 ${YEAR}`;
const MINE = "CC9201 - Leitura Própria";
const OTHERS = "CC9202 - Leitura Alheia";

test.scoped({
  appEnv: { PORTAL_TODAY: `${YEAR}-02-15` },
  appSetup: {
    run: (app) =>
      withDb(app, async (db) => {
        await insertScenario(db, RF, MINE);
        await insertScenario(db, RF, OTHERS);
        await assignPreparer(db, "gold@demo.local", MINE);
        await assignPreparer(db, "silver@demo.local", OTHERS);
      }),
  },
});

test("a preparer reads their cost centre's review; another's is the portal's 403 and is not offered", async ({
  page,
  app,
}) => {
  await signIn(page, app.baseURL, "gold@demo.local");
  const own = await page.goto(reviewPath(RF, MINE));
  expect(own?.status()).toBe(200);
  await page.locator(".forecast-grid__body [role=row]").first().waitFor();

  const refused = await page.goto(reviewPath(RF, OTHERS));
  expect(refused?.status()).toBe(403);
  await page.getByRole("heading", { name: uiTexts.forbiddenTitle }).waitFor();
  expect(await page.locator(".forecast-grid__body").count()).toBe(0);

  await page.goto("/ij/report_create_schneider");
  const offered = await page
    .locator("datalist option")
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(offered).toContain(MINE);
  expect(offered).not.toContain(OTHERS);
});

test("SYSTEM ADMIN reads every cost centre's review", async ({ page, app }) => {
  await signIn(page, app.baseURL, "sysadmin@demo.local");
  for (const cc of [MINE, OTHERS]) {
    expect((await page.goto(reviewPath(RF, cc)))?.status(), cc).toBe(200);
    await page.locator(".forecast-grid__body [role=row]").first().waitFor();
  }
});
