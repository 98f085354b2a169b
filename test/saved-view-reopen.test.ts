import { describe, expect, it, vi } from "vitest";
import { dataAnswer } from "#test/answers";
import { CENTRES, RF, signIn, url, useSeededForecast } from "~/features/forecast/consolidated/write-paths.fixture";
import { reviewPath } from "~/features/forecast/forecast-filter";
import type { VarianceGroup } from "~/features/forecast/variance";
import { loadViewsPage, viewsAction } from "~/features/saved-views/views.server";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { SAVED_VIEWS } from "~/models/saved-views.server";
import { loader as reviewLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * A view of the forecast review grid reopened from /user/visoes: the same cost centre with the same columns, as long
 * as the forecast's read rule lets its owner read that cost centre; afterwards the grid's own refusal (403), no data.
 */

const PREPARER = { email: "prep.views@example.com", name: "Paula Preparadora", type: "USER GOLD" as const };
const MINE = CENTRES[0].cc;
const seeded = useSeededForecast({
  clear: [FORECAST, FORECAST_PREPARERS, SAVED_VIEWS],
  users: [PREPARER],
  preparer: { user: PREPARER.email, cc: MINE },
});
const user = { ...PREPARER, sessionId: "s" };

/** The grid's loader on a view's address, its path segments decoded as the router gives them. */
async function open(href: string): Promise<{ status: number; columns?: VarianceGroup[] }> {
  const address = new URL(url(href));
  const [rf, cost_center_concat] = address.pathname.split("/").slice(-2).map(decodeURIComponent);
  try {
    const answer = dataAnswer<{ grid: { variance?: { columns: VarianceGroup[] } } }>(
      await reviewLoader({ request: new Request(address), params: { rf, cost_center_concat }, context: {} as never }),
    );
    return { status: answer.status, columns: answer.body.grid.variance?.columns };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status };
    throw thrown;
  }
}

describe("a saved view of the review grid", () => {
  it("reopens the grid as saved, and is the grid's refusal once its cost centre is no longer the user's", async () => {
    signIn(PREPARER);
    const saved = `${reviewPath(RF, MINE)}?cols=rf&cols=actual&ciclo=submit`;
    await viewsAction(
      user,
      new Request(url("/user/visoes"), {
        method: "POST",
        body: new URLSearchParams({ intent: "save", name: "Minha revisão", path: saved }),
      }),
    );
    const [view] = (await loadViewsPage(user, "")).rows;
    // The one-time answer of a cycle action is not the grid's state: left out.
    expect(view.href).toBe(`${reviewPath(RF, MINE)}?cols=rf&cols=actual`);
    expect(await open(view.href)).toEqual({ status: 200, columns: ["rf", "actual"] });

    await seeded.db.collection(FORECAST_PREPARERS).deleteMany({ user: PREPARER.email });
    expect(await open(view.href)).toEqual({ status: 403 });
  });
});
