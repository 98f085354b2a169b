import { boardTexts } from "~/features/forecast/cycle/board-texts";
import { bulkTexts } from "~/features/forecast/cycle/bulk-texts";
import { cycleAnswerTexts } from "~/features/forecast/cycle/server-texts";
import { FORECAST_CYCLE } from "~/models/forecast-cycle.server";
import { NOTICES } from "~/models/notices.server";
import { assignPreparer, insertScenario } from "../../app/features/forecast/fixtures";
import { withDb } from "./database";
import { expect, test, withoutJavaScript } from "./fixtures";
import { signIn } from "./sign-in";

/**
 * The status board deciding several submitted cost centres at once, without JavaScript: the reviewer ticks three,
 * approves, and reads which were approved and which were refused and why (one the reviewer prepares).
 */

const YEAR = new Date().getUTCFullYear();
const RF = `RF2 ${YEAR}`;
const FIRST = "CC9401 - Quadro Primeiro";
const SECOND = "CC9402 - Quadro Segundo";
const OWN = "CC9403 - Quadro do Revisor";

/** Three submitted cost centres of RF2, two the planner prepares and one the administrator does. */
async function submitted(app: Parameters<typeof withDb>[0]) {
  await withDb(app, async (db) => {
    const at = new Date(Date.now() - 60_000);
    for (const cc of [FIRST, SECOND, OWN]) await insertScenario(db, RF, cc);
    await assignPreparer(db, "gold@demo.local", FIRST, SECOND);
    await assignPreparer(db, "sysadmin@demo.local", OWN);
    for (const [cc, by] of [
      [FIRST, "gold@demo.local"],
      [SECOND, "gold@demo.local"],
      [OWN, "sysadmin@demo.local"],
    ])
      await db.collection(FORECAST_CYCLE).updateOne(
        { rf: RF, cost_center_concat: cc },
        {
          $set: {
            state: "submitted",
            changed_at: at,
            changed_by: by,
            changed_by_name: "",
            submitted_by: by,
            submitted_at: at,
            preparers_at_submission: [by],
          },
        },
        { upsert: true },
      );
  });
}

// The server of the review's other browser tests (pinned to 15 February); the data is added by the test itself.
test.scoped({ appEnv: { PORTAL_TODAY: `${YEAR}-02-15` } });

test("a reviewer approves several submitted cost centres from the board at once; each is decided on its own", async ({
  browser,
  app,
}) => {
  await submitted(app);
  await withoutJavaScript(browser, app, async (plain) => {
    await signIn(plain, app.baseURL, "sysadmin@demo.local");
    await plain.goto(`/ij/forecast_status?rf=${encodeURIComponent(RF)}&estado=submitted`);
    await plain.getByRole("heading", { level: 1, name: boardTexts.title }).waitFor();
    for (const cc of [FIRST, SECOND, OWN]) await plain.getByRole("checkbox", { name: bulkTexts.select(cc) }).check();
    await plain.getByRole("button", { name: bulkTexts.approve }).click();
    const answer = plain.getByRole("alert").filter({ hasText: bulkTexts.summary("approve", 2, 1) });
    await answer.waitFor();
    expect(await answer.innerText()).toContain(`${OWN}: ${cycleAnswerTexts.refused.ownCostCenter}`);
    // The two decided are no longer offered; the refused one still is.
    expect(await plain.getByRole("checkbox", { name: bulkTexts.select(FIRST) }).count()).toBe(0);
    expect(await plain.getByRole("checkbox", { name: bulkTexts.select(OWN) }).count()).toBe(1);
    await plain.goto(`/ij/forecast_status?rf=${encodeURIComponent(RF)}&estado=approved`);
    for (const cc of [FIRST, SECOND]) await plain.getByRole("link", { name: cc }).waitFor();
  });
  const told = await withDb(app, (db) =>
    db
      .collection(NOTICES)
      .countDocuments({ to: "gold@demo.local", kind: "forecast.approved", title: { $regex: "CC940[12]" } }),
  );
  expect(told).toBe(2);
});
