import { ObjectId } from "mongodb";
import { z } from "zod";
import { listScenarioNames } from "~/models/forecast.server";
import { forecastScopeOf } from "~/models/forecast-readers.server";
import { deleteVersion, hasClosingVersion, listVersions, versionTotalsOf } from "~/models/forecast-versions.server";
import { portalToday } from "~/shared/clock.server";
import { formatDateTime } from "~/shared/dates";
import { type CalendarDate, monthOfDay } from "~/shared/months";
import { roundTo2 } from "~/shared/numbers";
import { pageNumber } from "~/shared/pagination";
import type { PermissionType } from "~/shared/permissions";
import { consolidatedHref, DEFAULT_QUERY } from "../consolidated/query";
import { reviewPath, sortScenarios } from "../forecast-filter";
import { parseScenario, scenarioCalendar } from "../release-points";
import { APPROVALS_PAGE_PARAM, NAME_MAX, REASON_MAX, VERSIONS_PAGE_SIZE, type VersionListRow } from "./limits";
import { VERSION_PARAM } from "./review-variance.server";
import { auditVersion, notifyReviewers, takeVersion, type VersionActor, yearTotalOfRow } from "./snapshot.server";
import { versionTexts as t } from "./texts";

/**
 * The forecast's versions: "Salvar versão" (reviewers and SYSTEM ADMIN, on the consolidated view), the automatic
 * closing version when an RF's edit month ends, the approved figures kept at each approval, deleting (SYSTEM ADMIN,
 * with a reason) and the list, whose totals are the viewer's (docs/decisions.md).
 */

export type VersionOutcome = { ok: true; message: string; rf: string; id: string } | { ok: false; message: string };

const saveSchema = z.object({
  rf: z
    .string()
    .max(20)
    .refine((rf) => parseScenario(rf) !== null),
  nome: z.string().trim().min(1).max(NAME_MAX),
});

/** "Salvar versão": a name for the live RF's figures (the route's write rule decided who may). */
export async function saveNamedVersion(form: FormData | URLSearchParams, actor: NonNullable<VersionActor>) {
  const parsed = saveSchema.safeParse({ rf: form.get("rf"), nome: form.get("nome") });
  if (!parsed.success) return { ok: false, message: t.invalid, field: "nome" } as const;
  if (!(await listScenarioNames()).includes(parsed.data.rf)) return { ok: false, message: t.invalid } as const;
  const calendar = scenarioCalendar(parseScenario(parsed.data.rf)!);
  const version = await takeVersion({
    calendar,
    name: parsed.data.nome,
    kind: "manual",
    actor,
    now: new Date(),
    notifyReviewers: true,
  });
  return { ok: true, version: version! } as const;
}

const deleteSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/),
  motivo: z.string().trim().min(1).max(REASON_MAX),
});

/** Deletes a version (SYSTEM ADMIN: the route's write rule), with its reason in the audit trail and the notices. */
export async function deleteNamedVersion(
  form: FormData | URLSearchParams,
  actor: NonNullable<VersionActor>,
): Promise<VersionOutcome> {
  const parsed = deleteSchema.safeParse({ id: form.get("id"), motivo: form.get("motivo") });
  if (!parsed.success) {
    const reasonOnly = parsed.error.issues.every((issue) => issue.path[0] === "motivo");
    return { ok: false, message: reasonOnly ? t.reasonRequired : t.invalid };
  }
  const removed = await deleteVersion(new ObjectId(parsed.data.id));
  if (!removed) return { ok: false, message: t.notFound };
  await auditVersion("versionDeleted", removed, actor, parsed.data.motivo);
  await notifyReviewers(actor.email, "forecast.versionDeleted", removed, {
    title: t.notice.deletedTitle(removed.name),
    body: t.notice.deletedBody(actor.name || actor.email, removed.name, removed.rf, parsed.data.motivo),
  });
  return { ok: true, message: t.deleted(removed.name), rf: removed.rf, id: parsed.data.id };
}

/**
 * The approved figures of a cost centre kept as a version when it is approved, so that a later reopen does not lose
 * them. Called by the cycle's approve action once the approval is recorded.
 */
export async function keepApprovedFigures(rf: string, costCenter: string, actor: VersionActor, now: Date) {
  const scenario = parseScenario(rf);
  if (!scenario) return null;
  return takeVersion({
    calendar: scenarioCalendar(scenario),
    name: t.approvalName(rf, costCenter),
    kind: "approval",
    actor,
    now,
    costCenter,
    notifyReviewers: false,
  });
}

/**
 * The scheduled task: once an RF's edit month has ended (in the month that follows it), its figures are saved as
 * "<RF> — fechamento", once (a unique key on the RF). An RF whose edit month ended earlier than that is left alone:
 * its figures today are not the ones it closed with.
 */
export async function saveClosingVersions(now: Date, today: CalendarDate = portalToday(now)): Promise<string[]> {
  const month = monthOfDay(today);
  const saved: string[] = [];
  for (const rf of await listScenarioNames()) {
    const calendar = scenarioCalendar(parseScenario(rf)!);
    // Checked first (the usual case: an hourly task that already made it); the unique key settles a race.
    if (calendar.editMonth !== month - 1 || (await hasClosingVersion(rf))) continue;
    const version = await takeVersion({
      calendar,
      name: t.closingName(rf),
      kind: "closing",
      actor: null,
      now,
      notifyReviewers: true,
    });
    if (version) saved.push(version.name);
  }
  return saved;
}

// ---------------------------------------------------------------------------------------------
// The list

const listSchema = z.object({
  rf: z.string().max(20).nullable().catch(null),
  page: pageNumber,
  approvalsPage: pageNumber,
});

type Header = Awaited<ReturnType<typeof listVersions>>["rows"][number];

/** The list's query: `rf` (checked against the RFs by the loader), `page` and `aprovacoes`; anything else page 1. */
export function parseVersionListQuery(params: URLSearchParams): {
  rf: string | null;
  page: number;
  approvalsPage: number;
} {
  return listSchema.parse({
    rf: params.get("rf") || null,
    page: params.get("page") ?? undefined,
    approvalsPage: params.get(APPROVALS_PAGE_PARAM) ?? undefined,
  });
}

/**
 * The list: the versions people saved and the edit months' closings, newest first; then, apart and paged on their
 * own, the approvals under their cost centre (each cost centre's newest first). A preparer sees the approvals of
 * their cost centres only, and their own totals of the others (forecast-readers.server.ts).
 */
export async function loadVersionList(params: URLSearchParams, user: { email: string; type: PermissionType }) {
  const query = parseVersionListQuery(params);
  const scenarios = sortScenarios(await listScenarioNames());
  const rf = query.rf && scenarios.includes(query.rf) ? query.rf : null;
  const scope = await forecastScopeOf(user);
  const pageOf = (page: number, section: "company" | "approval") =>
    listVersions(rf ? [rf] : null, (page - 1) * VERSIONS_PAGE_SIZE, VERSIONS_PAGE_SIZE, scope, section);
  const [company, approvals] = await Promise.all([
    pageOf(query.page, "company"),
    pageOf(query.approvalsPage, "approval"),
  ]);
  const scoped = scope
    ? await versionTotalsOf(
        [...company.rows, ...approvals.rows].map((v) => v._id),
        scope,
        (row) => yearTotalOfRow(row, parseScenario(row.rf)?.year ?? 0),
      )
    : null;
  const view = (v: Header): VersionListRow => {
    const base = { ...DEFAULT_QUERY, rf: v.rf };
    const id = v._id.toHexString();
    const token = { kind: "version" as const, id };
    return {
      id,
      name: v.name,
      rf: v.rf,
      kind: t.kinds[v.kind],
      costCenter: v.cost_center_concat ?? null,
      when: formatDateTime(v.created_at),
      by: v.created_by_name || v.created_by || t.system,
      total: scoped ? roundTo2(scoped.get(id) ?? 0) || 0 : v.total,
      openHref: consolidatedHref({ ...base, base: token }),
      compareHref: consolidatedHref({ ...base, compare: token, cols: ["total"] }),
      exportHref: consolidatedHref({ ...base, base: token }, true),
      reviewHref: v.cost_center_concat ? `${reviewPath(v.rf, v.cost_center_concat)}?${VERSION_PARAM}=${id}` : null,
    };
  };
  return {
    scenarios,
    rf,
    page: query.page,
    total: company.total,
    rows: company.rows.map(view),
    approvals: { page: query.approvalsPage, total: approvals.total, rows: approvals.rows.map(view) },
    scoped: scope !== null,
  };
}
