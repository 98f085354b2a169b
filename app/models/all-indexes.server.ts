import type { Db, IndexDescription } from "mongodb";
// Personal API tokens and SCIM tokens
import { indexes as apiTokens } from "./api-tokens.server";
// The audit trail
import { indexes as audit } from "./audit.server";
import { indexes as auditRefusals } from "./audit-refusals.server";
import { indexes as authRecords } from "./auth-records.server";
// Comments on grid cells
import { indexes as cellComments } from "./cell-comments.server";
// Reports, financial statements, cockpit, FP&A and fiscal asset
import { indexes as cockpit } from "./cockpit.server";
import { indexes as dashboards } from "./dashboards.server";
// Excel round trips of the grids
import { indexes as excelImports } from "./excel-imports.server";
import { indexes as explorer } from "./explorer.server";
import { indexes as files } from "./files.server";
import { indexes as financial } from "./financial.server";
import { indexes as fiscal } from "./fiscal.server";
import { indexes as forecast } from "./forecast.server";
import { indexes as forecastConsolidated } from "./forecast-consolidated.server";
import { indexes as forecastCycle } from "./forecast-cycle.server";
import { indexes as forecastVersions } from "./forecast-versions.server";
// Upload templates: the FP&A responsibles' NOK base
import { indexes as fpa } from "./fpa.server";
import { indexes as hr } from "./hr.server";
import type { IndexDeclaration } from "./indexes";
import { indexes as instances } from "./instances.server";
import { indexes as ledger } from "./ledger.server";
import { indexes as masterData } from "./master-data.server";
// Notices to users (in-portal list and the mail queue)
import { indexes as notices } from "./notices.server";
import { indexes as planning } from "./planning.server";
// The planning filter's SKU attribute sets
import { attributeSetIndexes } from "./planning-attribute-sets.server";
import { indexes as reports } from "./reports.server";
import { indexes as reviews } from "./reports-reviews.server";
import { indexes as samlRequests } from "./saml-requests.server";
// Saved views of the screens
import { indexes as savedViews } from "./saved-views.server";
// Seasonality profiles, a base of the forecast's "Distribuir total"
import { indexes as seasonalityProfiles } from "./seasonality-profiles.server";
import { indexes as sessions } from "./sessions.server";
// Subscriptions to reports, statements and dashboards, and their send log
import { indexes as subscriptions } from "./subscriptions.server";
import { indexes as users } from "./users.server";

/** Every index any model module declares. */
export const allIndexes: IndexDeclaration[] = [
  ...users,
  ...sessions,
  ...apiTokens,
  ...savedViews,
  ...cellComments,
  ...authRecords,
  ...samlRequests,
  ...dashboards,
  ...files,
  ...masterData,
  ...planning,
  ...reports,
  ...financial,
  ...forecast,
  ...forecastCycle,
  ...forecastConsolidated,
  ...forecastVersions,
  ...seasonalityProfiles,
  ...hr,
  ...explorer,
  ...ledger,
  ...cockpit,
  ...fiscal,
  ...reviews,
  ...instances,
  ...excelImports,
  ...fpa,
  ...attributeSetIndexes,
  ...notices,
  ...audit,
  ...auditRefusals,
  ...subscriptions,
];

/**
 * Indexes an earlier release declared and this one replaced: applyIndexes drops them where they exist, so a data
 * directory or database set up before does not keep paying for them on every write. Only these names are ever
 * dropped; an index someone added by hand stays.
 */
export const retiredIndexes: { collection: string; name: string }[] = [
  // Replaced by sku_channel_creationDate (one point per SKU and channel).
  { collection: "planning_quantity", name: "sku_creationDate" },
];

export type AppliedIndexes = { collection: string; names: string[]; dropped?: string[] }[];

/**
 * The key MongoDB lists a declared index with: a text index's fields become `{ _fts: "text", _ftsx: 1 }` (its
 * weights name them), the other fields stay.
 */
export function listedIndexKey(key: IndexDeclaration["key"]): Record<string, unknown> {
  const listed: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(key as Record<string, unknown>)) {
    if (kind !== "text") listed[field] = kind;
    else if (!("_fts" in listed)) Object.assign(listed, { _fts: "text", _ftsx: 1 });
  }
  return listed;
}

/** Creates the declared indexes, one createIndexes call per collection, and drops the retired ones. Idempotent. */
export async function applyIndexes(
  db: Db,
  declarations: IndexDeclaration[] = allIndexes,
  retired = retiredIndexes,
): Promise<AppliedIndexes> {
  const byCollection = new Map<string, IndexDescription[]>();
  for (const { collection, key, options } of declarations) {
    const list = byCollection.get(collection) ?? [];
    list.push({ ...options, key: key as IndexDescription["key"] });
    byCollection.set(collection, list);
  }
  const applied: AppliedIndexes = [];
  for (const [collection, descriptions] of byCollection) {
    const names = await db.collection(collection).createIndexes(descriptions);
    const dropped: string[] = [];
    for (const { name } of retired.filter((r) => r.collection === collection)) {
      const exists = (await db.collection(collection).listIndexes().toArray()).some((i) => i.name === name);
      if (!exists) continue;
      await db.collection(collection).dropIndex(name);
      dropped.push(name);
    }
    applied.push(dropped.length > 0 ? { collection, names, dropped } : { collection, names });
  }
  return applied;
}
