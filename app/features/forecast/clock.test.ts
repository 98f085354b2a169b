import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, parseConfig, resetConfigForTests } from "~/config.server";
import { portalToday } from "~/shared/clock.server";

const saved = process.env.PORTAL_TODAY;
afterEach(() => {
  if (saved === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = saved;
  resetConfigForTests();
});

describe("PORTAL_TODAY", () => {
  it("is optional and read as a calendar day", () => {
    expect(parseConfig({}).portalToday).toBeUndefined();
    expect(parseConfig({ PORTAL_TODAY: "" }).portalToday).toBeUndefined();
    expect(parseConfig({ PORTAL_TODAY: "2026-11-15" }).portalToday).toBe("2026-11-15");
  });

  it.each(["2026-11-31", "15/11/2026", "2026-11", "tomorrow"])(
    "refuses %j with a message naming the variable",
    (value) => {
      let error: unknown;
      try {
        parseConfig({ PORTAL_TODAY: value });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join("\n")).toMatch(/^PORTAL_TODAY: /m);
    },
  );
});

describe("portalToday", () => {
  it("is the pinned day when PORTAL_TODAY is set, whatever the real time", () => {
    process.env.PORTAL_TODAY = "2027-02-28";
    resetConfigForTests();
    expect(portalToday(new Date("2030-06-01T12:00:00Z"))).toEqual({ year: 2027, month: 2, day: 28 });
  });

  it("is the current day in the portal's time zone otherwise", () => {
    delete process.env.PORTAL_TODAY;
    resetConfigForTests();
    // São Paulo (the default zone, UTC−3): 02:59 UTC on 1 December is still 30 November there.
    expect(portalToday(new Date("2026-12-01T02:59:59Z"))).toEqual({ year: 2026, month: 11, day: 30 });
    expect(portalToday(new Date("2026-12-01T03:00:00Z"))).toEqual({ year: 2026, month: 12, day: 1 });
    process.env.PORTAL_TIME_ZONE = "UTC";
    resetConfigForTests();
    try {
      expect(portalToday(new Date("2026-12-01T00:00:00Z"))).toEqual({ year: 2026, month: 12, day: 1 });
    } finally {
      delete process.env.PORTAL_TIME_ZONE;
      resetConfigForTests();
    }
  });
});
