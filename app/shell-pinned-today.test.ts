import { describe, expect, it } from "vitest";
import { dataAnswer } from "#test/answers";
import { usePortalToday } from "#test/clock";
import { pageGet, routeArgs } from "#test/requests";
import { loader as rootLoader } from "~/root";
import { uiTexts } from "~/shared/ui/texts";

/** A portal whose "today" is pinned (PORTAL_TODAY, the demo's and the tests' clock) says so on every page. */

usePortalToday("2027-02-15");

describe("the shell with a pinned today", () => {
  it("names the pinned day, as the portal writes a date, on every page (signed out too)", async () => {
    const root = dataAnswer<{ pinnedToday: string | null }>(await rootLoader(routeArgs(pageGet("/"))));
    expect(root.body.pinnedToday).toBe("15/02/2027");
    expect(uiTexts.pinnedToday("15/02/2027")).toContain("15/02/2027");
  });
});
