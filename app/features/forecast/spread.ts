/**
 * "Distribuir total": a total spread over the open months in proportion to weights (evenly, like the previous RF,
 * like last year's actuals, or typed). Each month is rounded to the unit of its figures (cents; whole units for
 * quantities) and the rounding remainder goes to the last month, so the months add up to the total exactly. Weights
 * that cannot share anything (none positive, a negative or missing one) fall back to evenly, and the result says so.
 * Pure: counted in whole units, never in floating cents.
 */

export type Spread = { values: number[]; fellBack: boolean };

export function spreadTotal(total: number, weights: readonly number[], decimals: 0 | 2): Spread {
  if (weights.length === 0) throw new Error("spreadTotal: no months to spread over");
  const unit = 10 ** decimals;
  const units = Math.round(total * unit);
  const usable = weights.every((w) => Number.isFinite(w) && w >= 0) && weights.some((w) => w > 0);
  const shares = usable ? weights : weights.map(() => 1);
  const sum = shares.reduce((a, b) => a + b, 0);
  const values: number[] = [];
  let given = 0;
  for (let i = 0; i < shares.length - 1; i++) {
    const part = Math.round((units * shares[i]) / sum) || 0;
    values.push(part);
    given += part;
  }
  values.push(units - given);
  return { values: values.map((v) => (v === 0 ? 0 : v / unit)), fellBack: !usable };
}

export const SPREAD_MODES = ["igual", "rf_anterior", "realizado_ano_anterior", "pesos"] as const;
export type SpreadMode = (typeof SPREAD_MODES)[number];

type MonthRow = { key: string; label: string; current: string; next: string };

export type SpreadPage = {
  rf: string;
  costCenter: string;
  reviewHref: string;
  accounts: { account: string; label: string }[];
  account: string;
  openMonths: { key: string; label: string }[];
  values: { total: string; mode: SpreadMode; weights: string };
  error: string | null;
  preview: { rows: MonthRow[]; note: string | null; olds: string; stamps: string } | null;
};
