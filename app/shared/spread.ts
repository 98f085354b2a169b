/**
 * "Distribuir total" (the forecast review's months, the planning grid's quantities): a total spread over months in
 * proportion to weights (evenly, like a base, or typed). Each month is rounded to the unit of its figures (cents; whole units for
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

/**
 * A total over several rows (each with its months' weights): with `rowWeights` null each row takes the whole total;
 * otherwise the total is first shared by the rows' weights (the remainder on the last row; no positive weight:
 * evenly, `sharedFellBack`), then each row is spread over its months (`fellBack` per row).
 */
export function spreadOverRows(
  total: number,
  monthWeights: readonly (readonly number[])[],
  rowWeights: readonly number[] | null,
  decimals: 0 | 2,
): { values: number[][]; fellBack: boolean[]; sharedFellBack: boolean } {
  const shared = rowWeights ? spreadTotal(total, rowWeights, decimals) : null;
  const rows = monthWeights.map((weights, i) => spreadTotal(shared ? shared.values[i] : total, weights, decimals));
  return {
    values: rows.map((r) => r.values),
    fellBack: rows.map((r) => r.fellBack),
    sharedFellBack: shared?.fellBack ?? false,
  };
}
