import { readWindow } from "~/models/forecast.server";
import { findSeasonalityProfile, listSeasonalityProfiles } from "~/models/seasonality-profiles.server";
import { type Month, monthNumber, monthStartDate } from "~/shared/months";
import { parsePtBrNumber } from "~/shared/numbers";
import type { Review } from "./review.server";
import type { SpreadMode } from "./spread";
import { spreadBaseTexts } from "./spread-texts";
import { forecastTexts } from "./texts";
import { previousScenario } from "./variance";

/**
 * The bases of the review's "Distribuir total": each chosen account's weights over the open months. Evenly: 1 each.
 * Typed: the form's `pesos`, one per open month. "Like the previous RF": that RF's forecast of the same months of the
 * same cost centre; "like last year's actuals": the actuals twelve months before; a month where the base has no figure
 * is NaN (its share is then the even one: ~/shared/spread). "Like a seasonality profile": the stored profile's weight
 * of each open month's calendar month (January's for 01/2028), the same for every account; the profile is read again
 * by its id on every preview and save. The figures read are the review's own cost centre, which `resolveReview` has
 * already held to the forecast's read rule.
 */

export type SpreadBase = { ok: true; weights: number[][] } | { ok: false; error: string };

export async function spreadWeights(
  review: Review,
  mode: SpreadMode,
  accounts: readonly string[],
  months: readonly Month[],
  typed: { weights: string; profile: string },
): Promise<SpreadBase> {
  if (mode === "igual") return { ok: true, weights: accounts.map(() => months.map(() => 1)) };
  if (mode === "pesos") {
    const parts = typed.weights.split(";").map((p) => parsePtBrNumber(p.trim()));
    if (parts.length !== months.length || parts.some((p) => !p.ok || p.empty || p.value < 0))
      return { ok: false, error: forecastTexts.spreadWeightsInvalid(months.length) };
    const weights = parts.map((p) => (p.ok ? p.value : 0));
    return { ok: true, weights: accounts.map(() => weights) };
  }
  if (mode === "perfil") {
    const profile = typed.profile ? await findSeasonalityProfile(typed.profile) : null;
    if (!profile) return { ok: false, error: spreadBaseTexts.profileMissing };
    const weights = months.map((m) => profile.weights[monthNumber(m) - 1] ?? Number.NaN);
    return { ok: true, weights: accounts.map(() => weights) };
  }
  const { calendar, costCenter } = review;
  const shift = mode === "realizado_ano_anterior" ? -12 : 0;
  const rf = mode === "rf_anterior" ? previousScenario(calendar).name : "actual";
  const from = monthStartDate(Math.min(...months) + shift);
  const to = monthStartDate(Math.max(...months) + shift + 1);
  const window = await readWindow(rf, costCenter.cost_center_concat, from, to);
  const weights = accounts.map((account) => {
    const entry = window.find((w) => w._id.account === account);
    return months.map((m) => {
      const i = entry ? entry.months.findIndex((d) => d.getTime() === monthStartDate(m + shift).getTime()) : -1;
      const value = i < 0 || !entry ? null : mode === "rf_anterior" ? entry.forecasts[i] : entry.values[i];
      return value === null ? Number.NaN : value;
    });
  });
  return { ok: true, weights };
}

/** The profiles the form offers (every stored one, by name). */
export async function spreadProfiles(): Promise<{ id: string; name: string }[]> {
  return (await listSeasonalityProfiles()).map((p) => ({ id: p._id.toHexString(), name: p.name }));
}
