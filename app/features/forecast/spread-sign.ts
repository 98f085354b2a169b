/**
 * The sign a "Distribuir total" may give an account of the review. The forecast records carry no account type, so an
 * account's nature is the sign of its figures in the review (its months as the grid shows them, summed): costs and
 * expenses, every account of the chart the portal holds, are positive; an account that sums below zero (a deduction,
 * a credit) is negative; one with no figures yet is an expense. A total of the account's sign (or zero) spreads as
 * asked. A total of the other sign is a reversal ("estorno"): it needs the preparer's confirmation, and may never take
 * the account past zero over the review (the months the spread leaves plus the total keep the account's sign), so a
 * reversal is at most what the account sums in its closed months: −5.000.000,00 on a salary line is refused. Counted
 * in cents.
 */

export type SpreadSignLine = { account: string; values: readonly (number | null)[] };

export type SpreadSignCheck =
  | { ok: true; reversals: string[] }
  | { ok: false; reason: "unconfirmed"; accounts: string[] }
  /** `limit`: the largest reversal the account takes, in reais (what its closed months sum, never below 0). */
  | { ok: false; reason: "tooLarge"; account: string; limit: number };

const cents = (value: number | null | undefined) => Math.round((value ?? 0) * 100) || 0;

/**
 * Whether the spread (`spread[r]`: line r's values over the `open` month positions) keeps each line's sign, or is a
 * reversal the preparer `confirmed` within its bound.
 */
export function checkSpreadSign(
  lines: readonly SpreadSignLine[],
  open: readonly number[],
  spread: readonly (readonly number[])[],
  confirmed: boolean,
): SpreadSignCheck {
  const opened = new Set(open);
  const reversals: string[] = [];
  for (const [r, line] of lines.entries()) {
    const total = (spread[r] ?? []).reduce((sum, v) => sum + cents(v), 0);
    let all = 0;
    let closed = 0;
    for (const [i, value] of line.values.entries()) {
      all += cents(value);
      if (!opened.has(i)) closed += cents(value);
    }
    const sign = all < 0 ? -1 : 1;
    if (total * sign >= 0) continue;
    if ((closed + total) * sign < 0)
      return { ok: false, reason: "tooLarge", account: line.account, limit: Math.max(0, closed * sign) / 100 };
    reversals.push(line.account);
  }
  if (reversals.length > 0 && !confirmed) return { ok: false, reason: "unconfirmed", accounts: reversals };
  return { ok: true, reversals };
}
