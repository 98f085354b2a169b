import { describe, expect, it } from "vitest";
import { parseSeedArgs } from "./seed-args";

describe("parseSeedArgs", () => {
  it("defaults to scale 1 without --if-empty", () => {
    expect(parseSeedArgs([])).toEqual({ scale: 1, ifEmpty: false, empty: false, liveJobs: false, help: false });
  });

  it("reads --live-jobs (the demo: the seeded queue is left to the worker)", () => {
    expect(parseSeedArgs(["--if-empty", "--live-jobs"])).toMatchObject({ ifEmpty: true, liveJobs: true });
  });

  it("reads --empty (the empty start)", () => {
    expect(parseSeedArgs(["--if-empty", "--empty"])).toMatchObject({ ifEmpty: true, empty: true });
  });

  it("reads --scale, --if-empty and --reference, in both spellings", () => {
    const args = parseSeedArgs(["--scale", "0.05", "--if-empty", "--reference=2026-03-15"]);
    expect(args.scale).toBe(0.05);
    expect(args.ifEmpty).toBe(true);
    expect(args.referenceDate?.toISOString()).toBe("2026-03-15T00:00:00.000Z");
    expect(parseSeedArgs(["--scale=3"]).scale).toBe(3);
  });

  it("rejects bad values with a readable message", () => {
    expect(() => parseSeedArgs(["--scale", "0"])).toThrow(/--scale must be a number above 0/);
    expect(() => parseSeedArgs(["--scale", "abc"])).toThrow(/--scale must be a number above 0/);
    expect(() => parseSeedArgs(["--scale"])).toThrow(/--scale needs a value/);
    expect(() => parseSeedArgs(["--reference", "2026-02-30"])).toThrow(/--reference must be a date as YYYY-MM-DD/);
    expect(() => parseSeedArgs(["--fast"])).toThrow(/Unknown argument "--fast"/);
  });
});
