import { accessContext } from "~/config.server";
import { DEFAULT_FORECAST_REVIEWER_TYPES, PERMISSION_TYPES, type PermissionType } from "~/shared/permissions";
import { costCentersPreparedBy, FORECAST_PREPARERS, type PreparerRecord, preparersOf } from "./forecast-cycle.server";
import { aggregateTogether } from "./reads-together.server";
import { usersOfTypes } from "./user-permissions.server";

/**
 * THE rule deciding whose forecast a user reads (docs/decisions.md "Forecast: who reads which cost centre"): the
 * reviewer types (FORECAST_REVIEWER_TYPES) and SYSTEM ADMIN read every cost centre; anyone else only the cost centres
 * they prepare (`forecast_preparers`), actuals included. Who may open a screen at all stays the screen's rule
 * (app/access.ts); this narrows what it shows. Every path that reads a cost centre's forecast asks here (docs/access.md
 * §4): the review and each of its pages and POSTs (`resolveReview`), its filter's list, the consolidated view and its
 * export, the versions, the API, the native dashboards' charts over `forecast`, the mentions of a cell's comment, an
 * edited export sent back. Writing follows the same rule (`forecastWriteScopeOf`, `writesCostCentre` below), asked by
 * every path that writes a cost centre's figures, uploads included.
 */

/** Who reads: an e-mail and a permission type ("" or null: none). */
export type ForecastReader = { email: string; type: PermissionType | "" | null };

/** The cost centres a reader may read: null for every one. */
export type ForecastScope = string[] | null;

const EVERY_COST_CENTRE_TYPE: PermissionType = "SYSTEM ADMIN";

/** Whether a permission type reads every cost centre (a reviewer type or SYSTEM ADMIN). */
export function readsEveryCostCentre(type: ForecastReader["type"]): boolean {
  if (!type) return false;
  const reviewers = accessContext().forecastReviewerTypes ?? DEFAULT_FORECAST_REVIEWER_TYPES;
  return type === EVERY_COST_CENTRE_TYPE || reviewers.includes(type);
}

/** The cost centres `reader` may read (null: every one). */
export async function forecastScopeOf(reader: ForecastReader): Promise<ForecastScope> {
  return readsEveryCostCentre(reader.type) ? null : costCentersPreparedBy(reader.email);
}

/** Whether a scope holds a cost centre. */
export function inForecastScope(scope: readonly string[] | null, costCentre: string): boolean {
  return scope === null || scope.includes(costCentre);
}

/**
 * Whether `reader` may read the forecast of one cost centre. The preparer's record is read with the request's other
 * reads of the same turn (the review page's reads go as one command).
 */
export async function readsCostCentre(reader: ForecastReader, costCentre: string): Promise<boolean> {
  if (readsEveryCostCentre(reader.type)) return true;
  const found = await aggregateTogether<PreparerRecord>(FORECAST_PREPARERS, [
    { $match: { cost_center_concat: costCentre, user: reader.email } },
    { $limit: 1 },
    { $project: { _id: 0, user: 1 } },
  ]);
  return found.length > 0;
}

// ---------------------------------------------------------------------------------------------
// The write side: whose figures a user may change

/** Who writes: an e-mail and a permission type, as for reading. */
export type ForecastWriter = ForecastReader;

/**
 * The cost centres whose forecast `writer` may change (null: every one): the same as they read, so a preparer writes
 * only the cost centres they prepare and the reviewer types and SYSTEM ADMIN every one. Whether a user may write the
 * forecast at all stays each path's own rule (the review's write rule, the upload target's); the cycle's state and the
 * RF's edit month stay `forecastLocks` (forecast.server.ts). Every write path asks here: the review's saves, "Distribuir
 * total", its Excel round trip (on screen, queued, or an edited export through /captura/manual), and each row of an
 * upload of the "forecast" template (/captura/manual, the API, `portal import --user`).
 */
export async function forecastWriteScopeOf(writer: ForecastWriter): Promise<ForecastScope> {
  return forecastScopeOf(writer);
}

/** Whether `writer` may change the forecast of one cost centre (forecastWriteScopeOf's rule, for one). */
export async function writesCostCentre(writer: ForecastWriter, costCentre: string): Promise<boolean> {
  return readsCostCentre(writer, costCentre);
}

/**
 * The e-mails (lower-cased) of everyone who may read a cost centre's forecast: the users of the reviewer types and of
 * SYSTEM ADMIN, and the cost centre's preparers (a cell's comment mentions only them).
 */
export async function costCentreReaderEmails(costCentre: string): Promise<Set<string>> {
  const [everyCentre, preparers] = await Promise.all([
    usersOfTypes(PERMISSION_TYPES.filter(readsEveryCostCentre)),
    preparersOf([costCentre]),
  ]);
  return new Set([...everyCentre.map((p) => p.user), ...(preparers.get(costCentre) ?? [])].map((e) => e.toLowerCase()));
}
