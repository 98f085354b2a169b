import { reportsTexts as t } from "~/messages";
import { type BusinessUnitId, CATEGORY1_OPTIONS, type Category1, type LedgerReport } from "~/models/reports.fields";

/**
 * The cockpit's URL state (spec 001 §2: 1. Period; 2. Business Unit, Report, Category 1–3), shared by both pages; the
 * loaders read it with cockpit-params.server.ts (zod stays out of the pages' browser code).
 */
export type CockpitParams = {
  period: string | null;
  unit: BusinessUnitId | null;
  report: LedgerReport;
  category1: Category1 | null;
  category2: string | null;
  category3: string | null;
};

export function cockpitSearch(params: CockpitParams, extra: Record<string, string> = {}): string {
  const entries = Object.entries({ ...params, ...extra }).filter(
    (e): e is [string, string] => typeof e[1] === "string" && e[1] !== "",
  );
  return `?${new URLSearchParams(entries)}`;
}

export const REPORT_LABELS: Record<LedgerReport, string> = {
  BALANCE_SHEET: t.balanceSheet,
  WORKING_CAPITAL: t.workingCapital,
};

/** One account's place in the category lists (what the dependent lists are built from). */
export type CategoryOption = { category1: string; category2: string; category3: string; workingCapital: boolean };

/** The choices of each list given the choices above it. */
export function dependentOptions(
  all: readonly CategoryOption[],
  chosen: Pick<CockpitParams, "report" | "category1" | "category2">,
) {
  const inReport = all.filter((o) => chosen.report === "BALANCE_SHEET" || o.workingCapital);
  const unique = (values: string[]) => [...new Set(values)];
  const category1 = CATEGORY1_OPTIONS.filter((c) => inReport.some((o) => o.category1 === c));
  const under1 = inReport.filter((o) => !chosen.category1 || o.category1 === chosen.category1);
  const category2 = unique(under1.map((o) => o.category2));
  const under2 = under1.filter((o) => !chosen.category2 || o.category2 === chosen.category2);
  const category3 = unique(under2.map((o) => o.category3));
  return { category1, category2, category3 };
}
