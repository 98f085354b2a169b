import { describe, expect, it } from "vitest";
import {
  figureInputName,
  MAX_FIGURE_FIELDS,
  normalizeComment,
  parseFigureInputName,
  readFigureForm,
} from "~/features/hr/edits";
import { checkFigure, formatFigure } from "~/features/hr/figures";
import { defaultMonth, MAX_RANGE_MONTHS, resolveMonthRange } from "~/features/hr/month-range";
import {
  addMonths,
  type Month,
  type MonthRange,
  monthAt,
  monthKey,
  monthLabel,
  parseMonthKey,
  parseMonthText,
} from "~/shared/months";

/** Months as their "YYYY-MM" keys, so the expectations read as the URL does. */
const key = (m: Month | null) => (m === null ? null : monthKey(m));
const m = (text: string) => parseMonthKey(text)!;
const keyed = (range: MonthRange) => ({ from: monthKey(range.from), to: monthKey(range.to) });

import { branchMatches, hrGridPath, hrPickerPath } from "~/features/hr/paths";
import { MASKED_CPF_UNKNOWN, maskCpf } from "~/shared/cpf";
import { hrTexts } from "./texts";

describe("maskCpf", () => {
  it("shows only the middle six digits, in the usual punctuation", () => {
    expect(maskCpf("12345678909")).toBe("***.456.789-**");
    expect(maskCpf("123.456.789-09")).toBe("***.456.789-**");
  });

  it("shows nothing of a value that is not 11 digits", () => {
    for (const value of ["", "1234567890", "123456789012", "abc", null, undefined])
      expect(maskCpf(value)).toBe(MASKED_CPF_UNKNOWN);
  });
});

describe("month range", () => {
  // 2026-03-01 02:00 UTC is still 28 February in São Paulo (UTC-3).
  const turnOfMonth = new Date("2026-03-01T02:00:00Z");
  const midMonth = new Date("2026-03-15T12:00:00Z");

  it("reads YYYY-MM and MM/YYYY, nothing else", () => {
    expect(key(parseMonthText("2026-03"))).toBe("2026-03");
    expect(key(parseMonthText("3/2026"))).toBe("2026-03");
    expect(key(parseMonthText("03/2026"))).toBe("2026-03");
    for (const bad of ["2026-13", "2026-00", "2026-3", "26-03", "março", "", "2026-03-01", '{"$gt":""}'])
      expect(key(parseMonthText(bad))).toBeNull();
  });

  it("counts months across years", () => {
    expect(key(addMonths(m("2026-01"), -1))).toBe("2025-12");
    expect(key(addMonths(m("2025-12"), 1))).toBe("2026-01");
    expect(key(addMonths(m("2026-03"), -27))).toBe("2023-12");
    expect(monthLabel(m("2026-03"))).toBe("03/2026");
  });

  it("defaults to the previous calendar month in the company's time zone, or the current one with the flag", () => {
    expect(key(defaultMonth(midMonth, false))).toBe("2026-02");
    expect(key(defaultMonth(midMonth, true))).toBe("2026-03");
    expect(key(monthAt(turnOfMonth))).toBe("2026-02");
    expect(key(defaultMonth(turnOfMonth, false))).toBe("2026-01");
    expect(key(defaultMonth(turnOfMonth, false, "UTC"))).toBe("2026-02");
    expect(key(defaultMonth(new Date("2026-01-10T12:00:00Z"), false))).toBe("2025-12");
  });

  const resolve = (from: string | null, to: string | null, useCurrentMonth = false) => {
    const result = resolveMonthRange({ from, to }, { now: midMonth, useCurrentMonth });
    return result.ok ? { ...result, range: keyed(result.range) } : { ...result, fallback: keyed(result.fallback) };
  };

  it("uses the default month when the URL has none, and one month when it has one end", () => {
    expect(resolve(null, null)).toEqual({ ok: true, range: { from: "2026-02", to: "2026-02" }, defaulted: true });
    expect(resolve("", "", true)).toEqual({ ok: true, range: { from: "2026-03", to: "2026-03" }, defaulted: true });
    expect(resolve("2025-11", null)).toMatchObject({ ok: true, range: { from: "2025-11", to: "2025-11" } });
    expect(resolve(null, "2025-11")).toMatchObject({ ok: true, range: { from: "2025-11", to: "2025-11" } });
    expect(resolve("2025-04", "2026-03")).toMatchObject({
      ok: true,
      range: { from: "2025-04", to: "2026-03" },
      defaulted: false,
    });
  });

  it("refuses malformed, reversed, out-of-bounds and too long ranges with a message and the default to offer", () => {
    const fallback = { from: "2026-02", to: "2026-02" };
    expect(resolve("2026-02", "2025-12")).toEqual({
      ok: false,
      error: hrTexts.monthReversed,
      from: "2026-02",
      to: "2025-12",
      fallback,
    });
    expect(resolve("abc", "2026-01")).toMatchObject({ ok: false, error: hrTexts.monthInvalid });
    expect(resolve('{"$gt":""}', null)).toMatchObject({ ok: false, error: hrTexts.monthInvalid });
    expect(resolve("1999-12", "2000-01")).toMatchObject({
      ok: false,
      error: hrTexts.monthOutOfBounds("01/2000", "03/2026"),
    });
    expect(resolve("2026-03", "2026-04")).toMatchObject({
      ok: false,
      error: hrTexts.monthOutOfBounds("01/2000", "03/2026"),
    });
    expect(resolve("9999-01", "9999-02")).toMatchObject({ ok: false });
    expect(resolve(monthKey(addMonths(m("2026-03"), -MAX_RANGE_MONTHS + 1)), "2026-03")).toMatchObject({ ok: true });
    expect(resolve(monthKey(addMonths(m("2026-03"), -MAX_RANGE_MONTHS)), "2026-03")).toMatchObject({
      ok: false,
      error: hrTexts.monthSpanTooLong(MAX_RANGE_MONTHS),
    });
    expect(resolve("x".repeat(10_000), null)).toMatchObject({ ok: false, from: "x".repeat(32) });
  });
});

describe("pt-BR numbers (app/shared/numbers.ts, tested there) under the HR figures' rules", () => {
  it("formats with the figure's decimals and dot thousands, without ICU", () => {
    expect(formatFigure("dias_media", 21.5)).toBe("21,5");
    expect(formatFigure("dias_media", 21)).toBe("21,0");
    expect(formatFigure("vendas_servicos", 0)).toBe("0,00");
    expect(formatFigure("vendas_adicionais", 9876.5)).toBe("9.876,50");
    expect(formatFigure("dias_media", 22.25)).toBe("22,25");
    expect(formatFigure("result_qtde_servico", 12)).toBe("12");
  });

  it("checks each figure: non-negative, its decimals, its ceiling", () => {
    expect(checkFigure("vendas_adicionais", "1.234,56")).toEqual({ ok: true, value: 1234.56 });
    expect(checkFigure("vendas_adicionais", "")).toEqual({ ok: true, value: 0 });
    expect(checkFigure("vendas_adicionais", "-1")).toEqual({ ok: false, error: hrTexts.negativeNumber });
    expect(checkFigure("vendas_adicionais", "1,234")).toEqual({ ok: false, error: hrTexts.tooManyDecimals(2) });
    expect(checkFigure("vendas_adicionais", "1,230")).toEqual({ ok: true, value: 1.23 });
    expect(checkFigure("vendas_servicos", "100.000.000")).toEqual({
      ok: false,
      error: hrTexts.numberTooLarge("99.999.999,99"),
    });
    expect(checkFigure("result_qtde_servico", "12,5")).toEqual({ ok: false, error: hrTexts.tooManyDecimals(0) });
    expect(checkFigure("result_qtde_servico", "1.500")).toEqual({ ok: true, value: 1500 });
    expect(checkFigure("dias_media", "31")).toEqual({ ok: true, value: 31 });
    expect(checkFigure("dias_media", "31,5")).toEqual({ ok: false, error: hrTexts.numberTooLarge("31") });
    // A lone point that cannot group thousands is a decimal point, as on every other entry (docs/decisions.md,
    // "Texts and language").
    expect(checkFigure("result_desafio_mensal", "12.5")).toEqual({ ok: true, value: 12.5 });
    expect(checkFigure("result_desafio_mensal", "1,234.5")).toEqual({ ok: false, error: hrTexts.invalidNumber });
    expect(checkFigure("vendas_adicionais", "(1.234,56)")).toEqual({ ok: false, error: hrTexts.negativeNumber });
    expect(checkFigure("result_qtde_servico", 12.5)).toEqual({ ok: false, error: hrTexts.tooManyDecimals(0) });
    expect(checkFigure("result_desafio_mensal", "9".repeat(40))).toEqual({ ok: false, error: hrTexts.invalidNumber });
  });
});

describe("the grid's form fields", () => {
  const id = "65f0a1b2c3d4e5f601234567";

  it("names one field per cell and reads back only well-formed names", () => {
    expect(figureInputName("dias_media", id)).toBe(`dias_media.${id}`);
    expect(parseFigureInputName(`dias_media.${id}`)).toEqual({ field: "dias_media", id });
    for (const bad of [
      `cpf.${id}`,
      `dias_media.${id}x`,
      `dias_media.${id.toUpperCase()}`,
      "dias_media",
      `$set.${id}`,
      `comentario.${id}`,
    ]) {
      expect(parseFigureInputName(bad), bad).toBeNull();
    }
  });

  it("reads the figure cells of a form, ignoring other fields, and reports every invalid cell", () => {
    const ok = readFigureForm([
      ["intent", "save"],
      [`vendas_adicionais.${id}`, "1.000,50"],
      [`cpf.${id}`, "12345678909"],
      [`result_qtde_servico.${id}`, "7"],
    ]);
    expect(ok).toEqual({
      ok: true,
      edits: [
        { id, field: "vendas_adicionais", value: 1000.5 },
        { id, field: "result_qtde_servico", value: 7 },
      ],
    });
    const bad = readFigureForm([
      [`vendas_adicionais.${id}`, "-5"],
      [`dias_media.${id}`, "abc"],
      [`vendas_servicos.${id}`, "10"],
    ]);
    expect(bad).toEqual({
      ok: false,
      errors: { [`vendas_adicionais.${id}`]: hrTexts.negativeNumber, [`dias_media.${id}`]: hrTexts.invalidNumber },
    });
  });

  it("refuses a form with more cells than a grid can hold", () => {
    const many = Array.from(
      { length: MAX_FIGURE_FIELDS + 1 },
      (_, i) => [`dias_media.${i.toString(16).padStart(24, "0")}`, "1"] as [string, string],
    );
    expect(readFigureForm(many)).toEqual({ ok: false, errors: {}, tooMany: true });
  });

  it("counts a comment's line breaks once, as the browser's counter does", () => {
    expect(normalizeComment("a\r\nb\rc\nd")).toBe("a\nb\nc\nd");
  });
});

describe("HR addresses and branch search", () => {
  it("puts the branch in one encoded path segment and the months in the query", () => {
    expect(hrGridPath("Loja São Paulo - Paulista", { from: "2026-01", to: "2026-02" })).toBe(
      "/ij/rh_edit/Loja%20S%C3%A3o%20Paulo%20-%20Paulista?mes_inicio=2026-01&mes_fim=2026-02",
    );
    expect(hrGridPath("a/b?c#d")).toBe("/ij/rh_edit/a%2Fb%3Fc%23d");
    expect(hrPickerPath("Loja X", { from: "2026-01", to: "2026-01" })).toBe(
      "/ij/rh?filial=Loja+X&mes_inicio=2026-01&mes_fim=2026-01",
    );
    expect(hrPickerPath()).toBe("/ij/rh");
  });

  it("matches branch names without case or accents", () => {
    expect(branchMatches("Loja São Paulo - Paulista", "sao paulo")).toBe(true);
    expect(branchMatches("Loja Niterói - Icaraí", "ICARAI")).toBe(true);
    expect(branchMatches("Loja Niterói - Icaraí", "")).toBe(true);
    expect(branchMatches("Loja Niterói - Icaraí", "recife")).toBe(false);
  });
});
