import { accessContext } from "~/config.server";
import { ACTUAL_SCENARIO } from "~/models/forecast.server";
import {
  createVersion,
  type NewVersion,
  type VersionHeader,
  type VersionKind,
  type VersionRow,
} from "~/models/forecast-versions.server";
import { notify } from "~/models/notices.server";
import { usersOfTypes } from "~/models/user-permissions.server";
import { recordAudit } from "~/platform/audit/record.server";
import { type Month, monthOf, monthStartDate } from "~/shared/months";
import { formatPtBr2, roundTo2 } from "~/shared/numbers";
import { DEFAULT_FORECAST_REVIEWER_TYPES } from "~/shared/permissions";
import { scenarioFigures } from "../consolidated/figures";
import { versionsHref } from "../consolidated/query";
import { scopedRollups } from "../consolidated/sources.server";
import { type ScenarioCalendar, windowMonths } from "../release-points";
import { versionTexts as t } from "./texts";

/**
 * Taking a version: the live RF's figures as its review shows them, over the RF's whole window, of every cost centre
 * (or of one, for an approval), stored once and never changed; recorded in the audit trail with its total.
 */

export type VersionActor = { email: string; name: string; type?: string | null } | null;

/** The figures of an RF's window, one row per cost centre (the rollups of the RF and the actuals). */
async function windowRows(
  calendar: ScenarioCalendar,
  costCenters: readonly string[] | null,
): Promise<Omit<VersionRow, "version_id">[]> {
  const months = windowMonths(calendar);
  const rollups = await scopedRollups([calendar.name, ACTUAL_SCENARIO], costCenters);
  const set = scenarioFigures(
    rollups.filter((r) => r.rf === calendar.name),
    rollups.filter((r) => r.rf === ACTUAL_SCENARIO),
    calendar,
    months,
  );
  return [...set.centres.values()].map((centre) => ({
    rf: calendar.name,
    cost_center_concat: centre.cost_center_concat,
    cost_center: centre.cost_center,
    level_descr: centre.level,
    first_month: monthStartDate(calendar.firstMonth),
    accounts: [...(set.lines.get(centre.cost_center_concat)?.values() ?? [])].map((line) => ({
      account: line.account,
      label: line.label,
      group: line.group,
      amounts: line.amounts,
    })),
  }));
}

/** A row's amounts in the months of `year` (the lists' totals). */
export function yearTotalOfRow(row: Pick<VersionRow, "first_month" | "accounts">, year: number): number {
  const first: Month = monthOf(row.first_month.getUTCFullYear(), row.first_month.getUTCMonth() + 1);
  const from = monthOf(year, 1) - first;
  let total = 0;
  for (const account of row.accounts)
    for (let i = Math.max(0, from); i < Math.min(account.amounts.length, from + 12); i++)
      total += account.amounts[i] ?? 0;
  return total;
}

/** Stores a version of the live RF; null when an automatic closing version of the RF already exists. */
export async function takeVersion(input: {
  calendar: ScenarioCalendar;
  name: string;
  kind: VersionKind;
  actor: VersionActor;
  now: Date;
  costCenter?: string;
  notifyReviewers: boolean;
}): Promise<VersionHeader | null> {
  const { calendar, actor, now } = input;
  const rows = await windowRows(calendar, input.costCenter ? [input.costCenter] : null);
  const total = roundTo2(rows.reduce((s, r) => s + yearTotalOfRow(r, calendar.year), 0)) || 0;
  const header: NewVersion = {
    name: input.name,
    rf: calendar.name,
    kind: input.kind,
    ...(input.costCenter ? { cost_center_concat: input.costCenter } : {}),
    ...(input.kind === "closing" ? { closing_of: calendar.name } : {}),
    created_at: now,
    created_by: actor?.email ?? "",
    created_by_name: actor?.name ?? t.system,
    total,
    cost_centers: rows.length,
  };
  const version = await createVersion(header, rows);
  if (!version) return null;
  await auditVersion("versionSaved", version, actor);
  if (input.notifyReviewers) {
    const who = actor?.name || actor?.email || t.system;
    await notifyReviewers(actor?.email ?? null, "forecast.versionSaved", version, {
      title: t.notice.savedTitle(version.name),
      body: t.notice.savedBody(who, version.name, version.rf, formatPtBr2(version.total)),
    });
  }
  return version;
}

/** The audit trail's entry of a saved or deleted version, with its totals. */
export function auditVersion(
  action: "versionSaved" | "versionDeleted",
  version: VersionHeader,
  actor: VersionActor,
  reason?: string,
) {
  return recordAudit({
    actor,
    event: "dataEdited",
    object: { kind: "dataset", id: `forecast_versions/${version._id.toHexString()}`, label: version.name },
    dataset: "forecast",
    outcome: "ok",
    details: {
      action,
      rf: version.rf,
      kind: version.kind,
      name: version.name,
      total: version.total,
      cost_centers: version.cost_centers,
      ...(version.cost_center_concat ? { cost_center_concat: version.cost_center_concat } : {}),
      ...(reason ? { reason } : {}),
    },
  });
}

/** The reviewers (FORECAST_REVIEWER_TYPES) hear of a version saved or deleted; never its author. */
export async function notifyReviewers(
  author: string | null,
  kind: string,
  version: VersionHeader,
  text: { title: string; body: string },
): Promise<void> {
  const reviewers = await usersOfTypes(accessContext().forecastReviewerTypes ?? DEFAULT_FORECAST_REVIEWER_TYPES);
  await notify(
    reviewers
      .map((r) => r.user)
      .filter((u) => u !== author)
      .map((to) => ({ to, kind, title: text.title, body: text.body, link: versionsHref(version.rf) })),
  );
}
