/**
 * The stored vocabulary of the forecast records (spec 001 §3, §4): the release points and the scenario names the `rf`
 * field holds ("RF1 2026"; "actual" for actuals). Browser-safe and text-free, shared by the forecast model and feature.
 */

export const RELEASE_POINT_NAMES = ["RF1", "RF2", "RF3", "RF4"] as const;
export type ReleasePointName = (typeof RELEASE_POINT_NAMES)[number];

/**
 * The longest `cost_center_concat` ("CC1001 - Marketing") the portal looks up: longer text in an address or the
 * filter is no cost centre. One limit for the filter field, the review's path and the lookup.
 */
export const COST_CENTER_CONCAT_MAX = 200;
/** The longest `account_concat` (an account code with its description) a file or form may carry. */
export const ACCOUNT_CONCAT_MAX = 200;

export type Scenario = { name: string; releasePoint: ReleasePointName; year: number };

const SCENARIO_NAME = /^(RF[1-4]) (\d{4})$/;

/** "RF1 2026" → its release point and year; anything else (the "actual" scenario, a forged name) → null. */
export function parseScenario(text: string): Scenario | null {
  const match = SCENARIO_NAME.exec(text);
  if (!match) return null;
  const year = Number(match[2]);
  if (year < 2000 || year > 2099) return null;
  return { name: text, releasePoint: match[1] as ReleasePointName, year };
}

export const scenarioName = (releasePoint: ReleasePointName, year: number) => `${releasePoint} ${year}`;
