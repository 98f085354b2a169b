/**
 * "Distribuir total" (the forecast review's months, the planning grid's quantities): a total spread over months in
 * proportion to weights (evenly, like a base, or typed). Each month is rounded to the unit of its figures (cents; whole
 * units for quantities) and the rounding remainder goes to the last month, so the months add up to the total exactly.
 * A base may cover only some months (NaN where a month has none: a previous RF that ends earlier, a month without
 * actuals): each month without a base takes the even share, total / n, and the months with one share the rest in
 * proportion to it (docs/decisions.md "Spreads that follow their base"), those months named (`unbased`). Weights that
 * cannot share anything (no month with a positive base, a negative or infinite one) fall back to evenly over every
 * month, and the result says so. Pure: counted in whole units, never in floating cents.
 */

export type Spread = {
  values: number[];
  /** No usable base: spread evenly over every month. */
  fellBack: boolean;
  /** Positions of the months without a base that took the even share while the others followed theirs. */
  unbased: number[];
};

/**
 * The weight each month takes: the base where a month has one, and for a month without (NaN) the mean of the based
 * months' weights, which gives it exactly total / n. Null when the base cannot share (fall back to evenly).
 */
function sharesOf(weights: readonly number[]): { shares: number[]; unbased: number[] } | null {
  const unbased = weights.flatMap((w, i) => (Number.isNaN(w) ? [i] : []));
  const based = weights.filter((w) => !Number.isNaN(w));
  if (based.some((w) => !Number.isFinite(w) || w < 0) || !based.some((w) => w > 0)) return null;
  if (unbased.length === 0) return { shares: [...weights], unbased };
  // Scaled by the count of based months so that a month without a base weighs their sum, not their (fractional) mean.
  const sum = based.reduce((a, b) => a + b, 0);
  return { shares: weights.map((w) => (Number.isNaN(w) ? sum : w * based.length)), unbased };
}

export function spreadTotal(total: number, weights: readonly number[], decimals: 0 | 2): Spread {
  if (weights.length === 0) throw new Error("spreadTotal: no months to spread over");
  const unit = 10 ** decimals;
  const units = Math.round(total * unit);
  const usable = sharesOf(weights);
  const shares = usable ? usable.shares : weights.map(() => 1);
  const sum = shares.reduce((a, b) => a + b, 0);
  const values: number[] = [];
  let given = 0;
  for (let i = 0; i < shares.length - 1; i++) {
    const part = Math.round((units * shares[i]) / sum) || 0;
    values.push(part);
    given += part;
  }
  values.push(units - given);
  return { values: values.map((v) => (v === 0 ? 0 : v / unit)), fellBack: !usable, unbased: usable?.unbased ?? [] };
}

/**
 * A total over several rows (each with its months' weights): with `rowWeights` null each row takes the whole total;
 * otherwise the total is first shared by the rows' weights (the remainder on the last row; no positive weight:
 * evenly, `sharedFellBack`), then each row is spread over its months (`fellBack` and `unbased` per row).
 */
export function spreadOverRows(
  total: number,
  monthWeights: readonly (readonly number[])[],
  rowWeights: readonly number[] | null,
  decimals: 0 | 2,
): { values: number[][]; fellBack: boolean[]; unbased: number[][]; sharedFellBack: boolean } {
  const shared = rowWeights ? spreadTotal(total, rowWeights, decimals) : null;
  const rows = monthWeights.map((weights, i) => spreadTotal(shared ? shared.values[i] : total, weights, decimals));
  return {
    values: rows.map((r) => r.values),
    fellBack: rows.map((r) => r.fellBack),
    unbased: rows.map((r) => r.unbased),
    sharedFellBack: shared?.fellBack ?? false,
  };
}
