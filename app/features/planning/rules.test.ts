import { describe, expect, it } from "vitest";
import {
  applyMultiplier,
  competencyRange,
  DATE_MAX,
  DATE_MIN,
  filterMatchesRow,
  filterSearchParams,
  fromFormFilter,
  groupEditFromParams,
  groupEditLabel,
  multiplierOf,
  type PlanningFilter,
  pageFromParams,
  pageParamValue,
  parseFilter,
  QUANTITY_MAX,
  SKU_LIST_LIMIT,
} from "~/features/planning/planning";
import { formatCompetencyMonth, formatPeriod, formatPlanningDay } from "~/features/planning/planning-dates";
import { checkGroupEdit, checkQuantity } from "~/features/planning/planning-values";
import { messages } from "~/messages";
import { groupEditSchema, quantityField } from "./form-schemas.server";
import { planningTexts } from "./texts";

const q = (text: string) => new URLSearchParams(text);

describe("the group-edit factor (spec 001 §5)", () => {
  it("multiplies by 1 + p/100 to increase and 1 − p/100 to decrease", () => {
    expect(multiplierOf({ percent: 10, op: "increase" })).toBe(110);
    expect(multiplierOf({ percent: 10, op: "decrease" })).toBe(90);
    expect(multiplierOf({ percent: 0, op: "increase" })).toBe(100);
    expect(multiplierOf({ percent: 1_000_000, op: "increase" })).toBe(1_000_100);
    expect(multiplierOf({ percent: 100, op: "decrease" })).toBe(0);
  });

  it("rounds the result half up to an integer, exactly (no binary-fraction drift)", () => {
    expect(applyMultiplier(100, 110)).toBe(110);
    expect(applyMultiplier(5, 110)).toBe(6); // 5.5 → 6
    expect(applyMultiplier(15, 110)).toBe(17); // 16.5 → 17
    expect(applyMultiplier(25, 110)).toBe(28); // 27.5 → 28 (not banker's 28/27 alternation)
    expect(applyMultiplier(3, 150)).toBe(5); // 4.5 → 5
    expect(applyMultiplier(1, 149)).toBe(1); // 1.49 → 1
    expect(applyMultiplier(7, 90)).toBe(6); // 6.3 → 6
    expect(applyMultiplier(5, 90)).toBe(5); // 4.5 → 5
    expect(applyMultiplier(1, 50)).toBe(1); // 0.5 → 1
    expect(applyMultiplier(1, 49)).toBe(0);
    expect(applyMultiplier(0, 1_000_100)).toBe(0);
    expect(applyMultiplier(1234, 0)).toBe(0);
    // 1.1 and 0.29 are not exact in binary; the integer form is: 29 × 1.1 would be 31.900000000000002.
    expect(applyMultiplier(29, 110)).toBe(32);
    expect(applyMultiplier(100, 29)).toBe(29);
  });

  it("agrees with exact rational rounding for every quantity and percentage tried", () => {
    for (let valor = 0; valor <= 2_000; valor += 7) {
      for (const multiplier of [0, 1, 33, 50, 99, 100, 101, 110, 150, 199, 250, 1_000, 12_345, 1_000_100]) {
        const exact = (BigInt(valor) * BigInt(multiplier) * 2n + 100n) / 200n; // floor(v·m/100 + 1/2)
        expect(applyMultiplier(valor, multiplier), `${valor} × ${multiplier}/100`).toBe(Number(exact));
      }
    }
    // Near the cap: still exact, and capped.
    const big = QUANTITY_MAX - 1;
    expect(applyMultiplier(big, 100)).toBe(big);
    expect(applyMultiplier(big, 99)).toBe(Number((BigInt(big) * 99n * 2n + 100n) / 200n));
    expect(applyMultiplier(QUANTITY_MAX, 1_000_100)).toBe(QUANTITY_MAX);
  });

  it("reads the percentage: integers 0 to 1,000,000, else Number is not valid; a decrease up to 100", () => {
    const ok = (percent: string, op = "increase") => groupEditSchema.safeParse({ percent, op });
    expect(ok("0").success).toBe(true);
    expect(ok("10").data).toEqual({ percent: 10, op: "increase" });
    expect(ok("1000000").success).toBe(true);
    for (const bad of ["1000001", "-1", "10.5", "1e3", "abc", "", " ", "0x10", "10%"]) {
      const result = ok(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0].message, bad).toBe(messages.numberNotValid);
    }
    expect(ok("100", "decrease").success).toBe(true);
    expect(ok("101", "decrease").error?.issues[0].message).toBe(planningTexts.decreaseTooLarge);
    expect(ok("10", "double").success).toBe(false);
  });

  it("labels the factor in pt-BR and reads it back from the URL", () => {
    expect(groupEditLabel({ percent: 10, op: "increase" })).toBe("+10% (×1,1)");
    expect(groupEditLabel({ percent: 25, op: "decrease" })).toBe("−25% (×0,75)");
    expect(groupEditLabel({ percent: 1_000_000, op: "increase" })).toBe("+1.000.000% (×10.001)");
    expect(groupEditFromParams(q("percent=10&op=increase"))).toEqual({ percent: 10, op: "increase" });
    expect(groupEditFromParams(q("percent=-3&op=increase"))).toBeNull();
    expect(groupEditFromParams(q(""))).toBeNull();
  });
});

describe("quantities (spec 001 §5: numeric, minimum 0, step 1, integers)", () => {
  it("accepts whole numbers 0 to the cap and nothing else", () => {
    expect(quantityField.parse("0")).toBe(0);
    expect(quantityField.parse("120")).toBe(120);
    expect(quantityField.parse(" 42 ")).toBe(42);
    expect(quantityField.parse(String(QUANTITY_MAX))).toBe(QUANTITY_MAX);
    expect(quantityField.parse("1.234")).toBe(1234);
    for (const bad of ["-1", "1.5", "1,5", "abc", "", "1e2", String(QUANTITY_MAX + 1), "1 000", "Infinity"]) {
      const result = quantityField.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0].message).toBe(messages.numberNotValid);
    }
    expect(quantityField.safeParse(undefined).error?.issues[0].message).toBe(messages.numberNotValid);
  });
});

describe("the filter (spec 001 §3, §5)", () => {
  it("needs a channel on /ij/plan, and keeps only the SKU group the radio chose", () => {
    const none = parseFilter(q("dateStart=2026-01-01&dateEnd=2026-06-30"), "plan");
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.errors.chanel).toEqual([planningTexts.channelRequired]);

    const bySku = parseFilter(q("skuMode=sku&sku=80000017&brand=Vivace&chanel=FSS"), "plan");
    expect(bySku).toMatchObject({
      ok: true,
      skuMode: "sku",
      filter: { sku: ["80000017"], brand: [], chanel: ["FSS"] },
    });
    const byAttributes = parseFilter(
      q("skuMode=attributes&sku=80000017&brand=Vivace&brand=Vivace&abcd=&chanel=FSS&chanel=BRANDSITE"),
      "plan",
    );
    expect(byAttributes).toMatchObject({
      ok: true,
      filter: { sku: [], brand: ["Vivace"], abcd: [""], chanel: ["FSS", "BRANDSITE"] },
    });
  });

  it("refuses unknown channels, dates out of bounds or in the wrong order, and oversize lists", () => {
    const bad = (text: string) => {
      const r = parseFilter(q(text), "plan");
      expect(r.ok, text).toBe(false);
      return r.ok ? {} : r.errors;
    };
    expect(bad("chanel=RETAIL").chanel).toEqual([planningTexts.unknownChannel("RETAIL")]);
    const range = planningTexts.dateInvalid("30/12/1950", "30/12/2030");
    expect(bad("chanel=FSS&dateStart=1950-12-29").dateStart).toEqual([range]);
    expect(bad("chanel=FSS&dateEnd=2030-12-31").dateEnd).toEqual([range]);
    expect(bad("chanel=FSS&dateStart=2026-02-30").dateStart).toEqual([range]);
    expect(bad("chanel=FSS&dateStart=26/01/2026").dateStart).toEqual([range]);
    expect(bad("chanel=FSS&dateStart=2026-05-01&dateEnd=2026-04-30").dateEnd).toEqual([planningTexts.dateOrder]);
    const many = Array.from({ length: SKU_LIST_LIMIT + 1 }, (_, i) => `sku=${80_000_000 + i}`).join("&");
    expect(bad(`chanel=FSS&skuMode=sku&${many}`).sku).toEqual([planningTexts.tooManyValues("SKU", SKU_LIST_LIMIT)]);
    expect(bad("chanel=FSS&skuMode=sku&sku=%7B%22%24ne%22%3A1%7D").sku).toEqual([
      planningTexts.unknownSku('{"$ne":1}'),
    ]);
    // The bounds themselves are fine, and From = To too.
    expect(parseFilter(q(`chanel=FSS&dateStart=${DATE_MIN}&dateEnd=${DATE_MAX}`), "plan").ok).toBe(true);
    expect(parseFilter(q("chanel=FSS&dateStart=2026-05-01&dateEnd=2026-05-01"), "plan").ok).toBe(true);
  });

  it("gives every message of a filter, each under its field, dates checked for their order even when out of bounds", () => {
    const r = parseFilter(
      q("dateStart=2031-01-01&dateEnd=2026-13-01&chanel=RETAIL&chanel=FSS&chanel=X&brand=Vivace&hero=&skuMode=x"),
      "plan",
    );
    const range = planningTexts.dateInvalid("30/12/1950", "30/12/2030");
    expect(r).toEqual({
      ok: false,
      skuMode: "attributes",
      errors: {
        dateStart: [range],
        dateEnd: [range, planningTexts.dateOrder],
        chanel: [planningTexts.unknownChannel("RETAIL")],
      },
    });
    expect(parseFilter(q("dateStart=&chanel=FSS&chanel=FSS&hero=x&skuMode=sku&sku=1"), "plan")).toEqual({
      ok: true,
      skuMode: "sku",
      filter: {
        dateStart: null,
        dateEnd: null,
        sku: ["1"],
        chanel: ["FSS"],
        brand: [],
        category: [],
        hero: [],
        majorCategory: [],
        abcd: [],
        subCategory: [],
        plcLocal: [],
      },
    });
  });

  it("reads back the filter kept in the browser, whatever another version or a person left there", () => {
    const kept = {
      dateStart: "2026-01-01",
      dateEnd: "2026-06-30",
      skuMode: "sku",
      sku: ["80000017"],
      chanel: ["FSS"],
      brand: ["Vivace"],
      extra: "dropped",
    };
    expect(fromFormFilter(JSON.stringify(kept))).toEqual({
      dateStart: "2026-01-01",
      dateEnd: "2026-06-30",
      skuMode: "sku",
      sku: ["80000017"],
      chanel: ["FSS"],
      brand: ["Vivace"],
      category: [],
      hero: [],
      majorCategory: [],
      abcd: [],
      subCategory: [],
      plcLocal: [],
    });
    // A field of the wrong shape reads as empty; what is not an object reads as nothing.
    expect(
      fromFormFilter(JSON.stringify({ dateStart: "2026-01-01T00:00", skuMode: "all", sku: [1], chanel: "FSS" })),
    ).toMatchObject({ dateStart: "", skuMode: "attributes", sku: [], chanel: [] });
    expect(fromFormFilter(JSON.stringify({ brand: Array.from({ length: 100_000 }, () => "x") }))?.brand).toEqual([]);
    for (const text of [null, "", "{", "null", "5", '"x"', "[]"]) expect(fromFormFilter(text), String(text)).toBeNull();
  });

  it("reads the report filter without a channel (every channel) and with both lists", () => {
    const r = parseFilter(q("sku=80000017&brand=Vivace&chanel=FSS"), "report");
    expect(r).toMatchObject({ ok: true, filter: { sku: ["80000017"], brand: ["Vivace"], chanel: [] } });
  });

  it("covers whole competency months from From to To, the picker bounds when empty", () => {
    expect(competencyRange({ dateStart: "2026-01-15", dateEnd: "2026-03-02" })).toEqual({
      from: new Date("2026-01-01T00:00:00Z"),
      to: new Date("2026-03-01T00:00:00Z"),
    });
    expect(competencyRange({ dateStart: null, dateEnd: null })).toEqual({
      from: new Date("1950-12-01T00:00:00Z"),
      to: new Date("2030-12-01T00:00:00Z"),
    });
  });

  it("matches rows by the same rule as the query, and survives a round trip through the URL", () => {
    const parsed = parseFilter(
      q("dateStart=2026-02-10&dateEnd=2026-04-01&brand=Vivace&abcd=&abcd=A&chanel=FSS"),
      "plan",
    );
    if (!parsed.ok) throw new Error("valid filter");
    const filter: PlanningFilter = parsed.filter;
    const row = {
      sku: "1",
      channel: "FSS",
      dateRef: new Date("2026-02-01T00:00:00Z"),
      marca: "Vivace",
      category_sku: "x",
      hero: "hero",
      categoria_principal_sku: "Makeup",
      abcd: "",
      sub_categoria_sku: "y",
      plc_localsku: "3-Released",
    };
    expect(filterMatchesRow(filter, row)).toBe(true);
    expect(filterMatchesRow(filter, { ...row, dateRef: new Date("2026-05-01T00:00:00Z") })).toBe(false);
    expect(filterMatchesRow(filter, { ...row, channel: "BRANDSITE" })).toBe(false);
    expect(filterMatchesRow(filter, { ...row, abcd: "B" })).toBe(false);
    expect(filterMatchesRow(filter, { ...row, marca: "Lumina" })).toBe(false);
    const again = parseFilter(filterSearchParams(filter, "attributes"), "plan");
    expect(again).toEqual(parsed);
  });
});

describe("paging (spec 001 §4, §9)", () => {
  it("counts /ij/plan_edit pages from 1 and /ij/report_preview page indexes from 0", () => {
    expect(pageFromParams(q(""), 1)).toBe(1);
    expect(pageFromParams(q("page=3"), 1)).toBe(3);
    expect(pageFromParams(q("page=0"), 1)).toBe(1);
    expect(pageFromParams(q("page=0"), 0)).toBe(1);
    expect(pageFromParams(q("page=2"), 0)).toBe(3);
    for (const bad of ["-1", "x", "1.5", "99999999"]) {
      expect(pageFromParams(q(`page=${bad}`), 0), bad).toBe(1);
      expect(pageFromParams(q(`page=${bad}`), 1), bad).toBe(1);
    }
    expect(pageParamValue(1, 0)).toBe(0);
    expect(pageParamValue(3, 0)).toBe(2);
    expect(pageParamValue(3, 1)).toBe(3);
  });
});

describe("dates (spec 001 §2: day, short month, year; the period as month and year)", () => {
  it("formats in pt-BR", () => {
    expect(formatPlanningDay(new Date("2026-05-05T14:00:00Z"))).toBe("05 mai 2026");
    expect(formatCompetencyMonth(new Date("2026-01-01T00:00:00Z"))).toBe("jan. de 2026");
    expect(formatPeriod({ dateStart: "2026-01-15", dateEnd: "2026-06-30" })).toBe("jan. de 2026 – jun. de 2026");
    expect(formatPeriod({ dateStart: null, dateEnd: null })).toBe(planningTexts.periodAll);
    expect(formatPeriod({ dateStart: "2026-03-01", dateEnd: null })).toBe("mar. de 2026 – dez. de 2030");
  });
});

describe("the plain rules the results screen checks in the browser (no zod there)", () => {
  const notValid = messages.numberNotValid;
  it.each([
    [
      { percent: " 10 ", op: "increase" },
      { ok: true, value: { percent: 10, op: "increase" } },
    ],
    [
      { percent: "1000000", op: "increase" },
      { ok: true, value: { percent: 1_000_000, op: "increase" } },
    ],
    [
      { percent: "100", op: "decrease" },
      { ok: true, value: { percent: 100, op: "decrease" } },
    ],
    [
      { percent: "101", op: "decrease" },
      { ok: false, messages: [planningTexts.decreaseTooLarge] },
    ],
    [
      { percent: "1000001", op: "increase" },
      { ok: false, messages: [notValid] },
    ],
    [
      { percent: "1.5", op: "increase" },
      { ok: false, messages: [notValid] },
    ],
    [
      { percent: "-1", op: "increase" },
      { ok: false, messages: [notValid] },
    ],
    [
      { percent: "", op: "x" },
      { ok: false, messages: [notValid, notValid] },
    ],
    [
      { percent: undefined, op: undefined },
      { ok: false, messages: [notValid, notValid] },
    ],
  ])("group edit %j", (input, expected) => {
    expect(checkGroupEdit(input)).toMatchObject(expected);
  });
  it.each([
    ["0", 0],
    [" 7 ", 7],
    ["1000000000", 1_000_000_000],
    ["1000000001", null],
    ["-1", null],
    // One rule for numbers (app/shared/numbers.ts): a point that cannot group thousands is a decimal point.
    ["1.0", 1],
    ["1.234", 1234],
    ["1,5", null],
    ["", null],
    [undefined, null],
  ])("quantity %j", (input, expected) => {
    const checked = checkQuantity(input);
    expect(checked.ok ? checked.value : null).toBe(expected);
  });
});
