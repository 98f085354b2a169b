import { describe, expect, it } from "vitest";
import { amountOf } from "~/features/forecast/excel.server";
import { readPastedBlock } from "~/features/forecast/grid-paste";
import { PROFILE_WEIGHT_RULE, profileWeightOf } from "~/features/forecast/profiles/profile-form";
import { forecastTemplate } from "~/features/forecast/upload-template";
import { checkFigure, HR_FIGURE_FIELDS, HR_FIGURE_RULES } from "~/features/hr/figures";
import { hrTemplate } from "~/features/hr/upload-template";
import { checkQuantity, QUANTITY_RULE } from "~/features/planning/planning-values";
import { planningQuantityTemplate } from "~/features/planning/upload-template";
import { ledgerTemplate } from "~/features/reports-and-financial/upload-templates";
import { parseBrazilianNumber } from "~/models/reports.fields";
import { checkCell } from "~/platform/import/rules";
import type { Template } from "~/platform/import/template";
import { MONEY_RULE, type NumberRule, readNumber } from "~/shared/numbers";

/**
 * One rule for a number (docs/decisions.md "Texts and language"): every entry point that takes a number — a grid's
 * cell, a paste, an Excel round trip, an upload template, the FP&A form, a seasonality profile's weight — gives the
 * verdict of app/shared/numbers.ts under its value's rule, on the same inputs. The CLI loads files through the same
 * templates and round trips.
 */

const TEXTS = [
  "0",
  "12",
  "1.234",
  "1234",
  "12,5",
  "12.5",
  "1.234,56",
  "(1.234,56)",
  "-3",
  "+7",
  "10,555",
  "31",
  "31,5",
  "1,234.56",
  "1.23.4",
  "1 234",
  "abc",
  "1e5",
  "999.999.999.999",
  "  42  ",
];
const CELLS = [0, 12, 12.5, 1234.567, -1, 31.004];

type Verdict = number | null;
const expected = (input: string | number, rule: NumberRule): Verdict => {
  const read = readNumber(input, rule);
  return read.ok ? read.value : null;
};

function templateEntry(template: Template, column: string) {
  const found = template.columns.find((c) => c.name === column);
  if (!found) throw new Error(`${template.id} has no column ${column}`);
  return (input: string | number): Verdict => {
    const out = { value: undefined as unknown };
    const error = checkCell(found.rule, input, typeof input === "number" ? String(input) : input.trim(), out);
    return error === null ? (out.value as number) : null;
  };
}

const cases: Array<{ entry: string; rule: NumberRule; run: (input: string | number) => Verdict; cells: boolean }> = [
  {
    entry: "planning grid and Excel round trip (checkQuantity)",
    rule: QUANTITY_RULE,
    run: (input) => {
      const checked = checkQuantity(input);
      return checked.ok ? checked.value : null;
    },
    cells: true,
  },
  {
    entry: "planning upload template (valor)",
    rule: QUANTITY_RULE,
    run: templateEntry(planningQuantityTemplate, "valor"),
    cells: true,
  },
  ...HR_FIGURE_FIELDS.flatMap((field) => [
    {
      entry: `HR grid and Excel round trip (${field})`,
      rule: HR_FIGURE_RULES[field],
      run: (input: string | number) => {
        const checked = checkFigure(field, input);
        return checked.ok ? checked.value : null;
      },
      cells: true,
    },
    {
      entry: `HR upload template (${field})`,
      rule: HR_FIGURE_RULES[field],
      run: templateEntry(hrTemplate, field),
      cells: true,
    },
  ]),
  {
    entry: "forecast grid paste",
    rule: MONEY_RULE,
    run: (input) => {
      const block = readPastedBlock(String(input));
      return block.ok ? block.values[0][0] : null;
    },
    cells: false,
  },
  { entry: "forecast Excel round trip", rule: MONEY_RULE, run: (input) => amountOf(input), cells: true },
  {
    entry: "forecast upload template",
    rule: MONEY_RULE,
    run: templateEntry(forecastTemplate, "forecast"),
    cells: true,
  },
  { entry: "ledger upload template", rule: MONEY_RULE, run: templateEntry(ledgerTemplate, "priorYear"), cells: true },
  { entry: "FP&A forecast form", rule: MONEY_RULE, run: (input) => parseBrazilianNumber(String(input)), cells: false },
  {
    entry: "seasonality profile form (a month's weight)",
    rule: PROFILE_WEIGHT_RULE,
    run: (input) => profileWeightOf(String(input)),
    cells: false,
  },
];

describe("every entry point reads a number by the one rule of its value", () => {
  it.each(cases.map((c) => [c.entry, c] as const))("%s", (_entry, c) => {
    const inputs: Array<string | number> = [...TEXTS, ...(c.cells ? CELLS : [])];
    const got = inputs.map((input) => [input, c.run(input)]);
    const want = inputs.map((input) => [input, expected(input, c.rule)]);
    expect(got).toEqual(want);
  });

  it("gives one verdict for 12.5 across the HR figure with decimals: 12,5 on the grid, the round trip and the template", () => {
    const verdicts = cases.filter((c) => c.entry.includes("result_desafio_mensal")).map((c) => c.run("12.5"));
    expect(verdicts).toEqual([12.5, 12.5]);
  });
});
