import { accessContext } from "~/config.server";
import { costCentersPreparedBy } from "~/models/forecast-cycle.server";
import { DEFAULT_FORECAST_REVIEWER_TYPES, type PermissionType } from "~/shared/permissions";

/**
 * Who sees which cost centres of the consolidated forecast and of its versions (docs/decisions.md): the reviewer
 * types (FORECAST_REVIEWER_TYPES) and SYSTEM ADMIN every one; anyone else who may read the review only the cost
 * centres they prepare, so that their totals are their own. The one rule the screen, its export and the versions'
 * list apply, on the server.
 */

export const ADMIN_TYPE: PermissionType = "SYSTEM ADMIN";

export function seesEveryCostCentre(type: PermissionType): boolean {
  const reviewers = accessContext().forecastReviewerTypes ?? DEFAULT_FORECAST_REVIEWER_TYPES;
  return type === ADMIN_TYPE || reviewers.includes(type);
}

/** The cost centres a user may see: null for every one. */
export async function costCentreScope(user: { email: string; type: PermissionType }): Promise<string[] | null> {
  return seesEveryCostCentre(user.type) ? null : costCentersPreparedBy(user.email);
}
