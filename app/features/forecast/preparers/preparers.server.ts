import { z } from "zod";
import { canAccessRoute, PERMISSION_TYPES, type PermissionType } from "~/access";
import { accessContext } from "~/config.server";
import { readExcelImport, recordExcelImport } from "~/models/excel-imports.server";
import { listCostCenters } from "~/models/forecast.server";
import {
  assignPreparers,
  cycleOf,
  isPreparer,
  preparedCostCenters,
  preparersOf,
  unassignPreparer,
} from "~/models/forecast-cycle.server";
import { listResponsibles } from "~/models/fpa.server";
import { allUserNames, usersByEmail, usersOfTypes } from "~/models/user-permissions.server";
import { normalizeEmail } from "~/models/users.server";
import { type AuditDetailsInput, actorByEmail, recordDataEvent } from "~/platform/audit/record.server";
import { byPtBr, byPtBrNumeric } from "~/shared/collation";
import type { CalendarDate } from "~/shared/months";
import { pageNumber } from "~/shared/pagination";
import { scenarioOpenOn } from "../release-points";
import { matchResponsibles, nameKey, type Proposal, peopleNamed, type Unmatched } from "./matching";
import { type ListState, PREPARERS_PAGE_SIZE } from "./paths";
import { preparersTexts as t } from "./texts";

/**
 * The preparers' screen (/ij/forecast_preparers): the list of cost centres with their preparers, the add and remove
 * actions, the suggestion from the FP&A responsibles and the outcome of a template or a suggestion. One rule decides
 * who may be a preparer, for every path (screen, suggestion, template): an existing portal user whose type may save
 * the forecast review (`mayPrepare`), on a cost centre the forecast has.
 */

/** The route whose saving rule a preparer must pass: the forecast review's. */
const FORECAST_EDIT_ROUTE = "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat" as const;

/** The most assignments one template may carry. */
export const MAX_PAIRS = 20_000;

/** The most proposals one suggestion's confirmation may carry (the FP&A data has one record per business unit). */
export const MAX_SUGGESTED_PAIRS = 1000;

/** The dataset name under which a template's or a suggestion's outcome is kept for the screen (`?excel=<id>`). */
export const PREPARERS_DATASET = "forecast_preparers";

/** Whether a user of `type` may open the preparers' screen (for links to it from other screens). */
export function mayManagePreparers(type: string): boolean {
  return canAccessRoute(type as PermissionType, "routes/ij.forecast_preparers", accessContext());
}

/** Whether a user of `type` may be a preparer: the forecast review's saving rule. */
export function mayPrepare(type: string): boolean {
  return canAccessRoute(type as PermissionType, FORECAST_EDIT_ROUTE, accessContext(), "write");
}

/** The people who may be made preparers (the picker's choices), by name: the portal users whose type may save the review. */
export async function preparerPeople(): Promise<{ email: string; name: string }[]> {
  const users = await usersOfTypes(PERMISSION_TYPES.filter(mayPrepare));
  return users.map((u) => ({ email: u.user, name: u.name })).sort((a, b) => byPtBr(a.name, b.name));
}

// ---------------------------------------------------------------------------------------------
// The list

const listSchema = z.object({
  q: z.string().trim().max(200).catch(""),
  sem: z
    .string()
    .optional()
    .transform((v) => v === "1")
    .catch(false),
  page: pageNumber,
});

export function parseListState(url: URL): ListState {
  const parsed = listSchema.parse({
    q: url.searchParams.get("q") ?? "",
    sem: url.searchParams.get("sem") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
  });
  return { q: parsed.q, without: parsed.sem, page: parsed.page };
}

export type PreparerCell = { email: string; known: boolean; name: string; type: string; mayPrepare: boolean };
export type CostCenterRow = { costCenter: string; inForecast: boolean; preparers: PreparerCell[] };

/**
 * One page of the cost centres (every cost centre of the forecast, and any other that still has a preparer so that it
 * can be removed, in pt-BR numeric order) matching the text (code or name, without case or accents) and, when asked,
 * without a preparer; with their preparers' names. A page past the end answers the last one.
 */
export async function listPage(state: ListState) {
  const [forecastCenters, prepared] = await Promise.all([listCostCenters(), preparedCostCenters()]);
  const inForecast = new Set(forecastCenters);
  const orphans = [...prepared].filter((cc) => !inForecast.has(cc));
  const all = orphans.length > 0 ? [...forecastCenters, ...orphans].sort(byPtBrNumeric) : forecastCenters;
  const needle = nameKey(state.q);
  const matching = all.filter(
    (cc) => (!needle || nameKey(cc).includes(needle)) && (!state.without || !prepared.has(cc)),
  );
  const pageCount = Math.max(1, Math.ceil(matching.length / PREPARERS_PAGE_SIZE));
  const page = Math.min(state.page, pageCount);
  const slice = matching.slice((page - 1) * PREPARERS_PAGE_SIZE, page * PREPARERS_PAGE_SIZE);
  const preparers = slice.length > 0 ? await preparersOf(slice) : new Map<string, string[]>();
  const emails = [...preparers.values()].flat();
  const users = await usersByEmail(emails);
  const rows: CostCenterRow[] = slice.map((costCenter) => ({
    costCenter,
    inForecast: inForecast.has(costCenter),
    preparers: (preparers.get(costCenter) ?? []).map((email) => {
      const user = users.get(email);
      return {
        email,
        known: user !== undefined,
        name: user?.name ?? "",
        type: user?.type ?? "",
        mayPrepare: mayPrepare(user?.type ?? ""),
      };
    }),
  }));
  return { rows, total: matching.length, page, pageCount, anyCostCenter: all.length > 0 };
}

// ---------------------------------------------------------------------------------------------
// The one check of every path

export type Candidate = { line: number; cost_center_concat: string; user: string };
export type RefusedPair = Candidate & { reason: string };

const emailSchema = z.string().trim().max(254).email();

/** The forecast's cost centres by their code (the part before " - ", upper case). */
function costCentresByCode(costCenters: ReadonlySet<string>): Map<string, string[]> {
  const byCode = new Map<string, string[]>();
  for (const name of costCenters) {
    const cut = name.indexOf(" - ");
    if (cut <= 0) continue;
    const code = name.slice(0, cut).trim().toUpperCase();
    byCode.set(code, [...(byCode.get(code) ?? []), name]);
  }
  return byCode;
}

/**
 * Of the candidate assignments, those that may be made (a cost centre of the forecast; an e-mail of a portal user whose
 * type may save the forecast) and those refused with the reason. The valid ones are unique (a repeated pair once).
 */
export async function checkCandidates(
  candidates: readonly Candidate[],
): Promise<{ valid: Candidate[]; refused: RefusedPair[]; repeated: number }> {
  const costCenters = new Set(await listCostCenters());
  const byCode = costCentresByCode(costCenters);
  const emails = candidates.map((c) => normalizeEmail(c.user)).filter((e) => emailSchema.safeParse(e).success);
  const users = await usersByEmail(emails);
  const valid: Candidate[] = [];
  const refused: RefusedPair[] = [];
  const seen = new Set<string>();
  let repeated = 0;
  for (const candidate of candidates) {
    const given = candidate.cost_center_concat.trim();
    // A code alone ("CC1006") names the one cost centre whose name starts with it, as the suggestion matches them.
    const named = costCenters.has(given) ? [given] : (byCode.get(given.toUpperCase()) ?? []);
    const cc = named.length === 1 ? named[0] : given;
    const email = normalizeEmail(candidate.user);
    const refuse = (reason: string) => refused.push({ ...candidate, reason });
    if (!given) refuse(t.refused.costCenterRequired);
    else if (!email) refuse(t.refused.emailRequired);
    else if (!emailSchema.safeParse(email).success) refuse(t.refused.invalidEmail(candidate.user));
    else if (named.length > 1) refuse(t.refused.ambiguousCode(given));
    else if (named.length === 0) refuse(t.refused.unknownCostCenter(given));
    else {
      const user = users.get(email);
      if (!user) refuse(t.refused.notUser(email));
      else if (!mayPrepare(user.type)) refuse(t.refused.cannotEdit(email, user.type));
      else {
        const key = `${cc}\u0000${email}`;
        if (seen.has(key)) repeated++;
        else {
          seen.add(key);
          valid.push({ line: candidate.line, cost_center_concat: cc, user: email });
        }
      }
    }
  }
  return { valid, refused, repeated };
}

export type AssignOutcome = { assigned: number; present: number; refused: RefusedPair[] };

/** Checks the candidates and assigns the valid ones (additive: nothing is removed); `via`: the template or the suggestion. */
export async function assignCandidates(
  candidates: readonly Candidate[],
  by: string,
  via: "template" | "suggestion",
): Promise<AssignOutcome> {
  const { valid, refused, repeated } = await checkCandidates(candidates);
  const assigned = await assignPreparers(
    valid.map(({ cost_center_concat, user }) => ({ cost_center_concat, user })),
    normalizeEmail(by),
    new Date(),
  );
  const outcome = { assigned, present: valid.length - assigned + repeated, refused };
  await recordPreparers(by, null, {
    action: "preparersLoaded",
    via,
    assigned: outcome.assigned,
    present: outcome.present,
    refused: refused.length,
  });
  return outcome;
}

/** Keeps an outcome's refused rows for the screen (`?excel=<id>`), for its author only; null when nothing was refused. */
export async function keepOutcome(by: string, outcome: AssignOutcome): Promise<string | null> {
  if (outcome.refused.length === 0) return null;
  const id = await recordExcelImport({
    user: normalizeEmail(by),
    dataset: PREPARERS_DATASET,
    at: new Date(),
    changed: outcome.assigned,
    items: outcome.refused.map((r) => ({
      kind: "refused" as const,
      line: r.line,
      row: r.cost_center_concat,
      column: "user_email",
      value: r.user,
      reason: r.reason,
    })),
  });
  return id.toHexString();
}

/** The refused rows of one of the user's outcomes (at most `max` of them, and how many there were). */
export async function keptRefusals(id: string | null, user: string, max = 200) {
  if (!id) return null;
  const record = await readExcelImport(id, normalizeEmail(user), PREPARERS_DATASET);
  if (!record) return null;
  const rows = record.items.map((i) => ({ line: i.line, costCenter: i.row, email: i.value, reason: i.reason ?? "" }));
  return { rows: rows.slice(0, max), more: Math.max(0, rows.length - max) };
}

// ---------------------------------------------------------------------------------------------
// Add, remove

/** A refusal; `choices`: the people a name matched, to pick one from. */
export type Refusal = { ok: false; message: string; choices?: Person[] };
type Person = { email: string; name: string };

/** The most people a name's refusal offers to pick from (it says how many matched). */
const MAX_CHOICES = 20;

/**
 * The e-mail the add form's field names: an e-mail as typed (checked as every path checks it), or a name that one person
 * who may prepare has (`peopleNamed`); several are offered to pick from, none is refused.
 */
async function personTyped(typed: string): Promise<{ ok: true; email: string } | Refusal> {
  if (typed.includes("@")) return { ok: true, email: typed };
  const matches = peopleNamed(typed, await preparerPeople());
  const name = typed.trim();
  if (matches.length === 1) return { ok: true, email: matches[0].email };
  if (matches.length === 0) return { ok: false, message: t.refused.noneNamed(name) };
  return {
    ok: false,
    message: t.refused.severalNamed(name, matches.length),
    choices: matches.slice(0, MAX_CHOICES).map(({ email, name }) => ({ email, name })),
  };
}

/** Adds one preparer by e-mail or by name (the screen's form). */
export async function addPreparer(
  costCenter: string,
  typed: string,
  by: string,
): Promise<{ ok: true; email: string; costCenter: string } | Refusal> {
  const person = await personTyped(typed);
  if (!person.ok) return person;
  const email = person.email;
  const normalized = normalizeEmail(email);
  const { valid, refused } = await checkCandidates([{ line: 0, cost_center_concat: costCenter, user: email }]);
  if (refused.length > 0) return { ok: false, message: refused[0].reason };
  if (await isPreparer(valid[0].cost_center_concat, normalized))
    return { ok: false, message: t.refused.alreadyAssigned(normalized, costCenter) };
  await assignPreparers(
    [{ cost_center_concat: valid[0].cost_center_concat, user: normalized }],
    normalizeEmail(by),
    new Date(),
  );
  await recordPreparers(by, valid[0].cost_center_concat, { action: "preparerAdded", user: normalized });
  return { ok: true, email: normalized, costCenter: valid[0].cost_center_concat };
}

/** Removes one preparer (after the screen's confirmation); `by` is the administrator, kept in the audit trail. */
export async function removePreparer(costCenter: string, email: string, by: string): Promise<{ ok: true } | Refusal> {
  const normalized = normalizeEmail(email);
  if (!(await unassignPreparer(costCenter, normalized)))
    return { ok: false, message: t.refused.notAssigned(normalized, costCenter) };
  await recordPreparers(by, costCenter, { action: "preparerRemoved", user: normalized });
  return { ok: true };
}

/**
 * The warning before a removal that would leave a cost centre Enviado in the RF open today without a preparer: its
 * return could then be fixed by no one. Null otherwise.
 */
export async function removalWarning(costCenter: string, email: string, today: CalendarDate): Promise<string | null> {
  const open = scenarioOpenOn(today)?.name;
  if (!open) return null;
  const [cycle, preparers] = await Promise.all([cycleOf(open, costCenter), preparersOf([costCenter])]);
  if (cycle?.state !== "submitted") return null;
  const left = (preparers.get(costCenter) ?? []).filter((p) => p !== normalizeEmail(email));
  return left.length === 0 ? t.removeOnlySubmitted(costCenter, open) : null;
}

/** A change to the preparers in the audit trail, as the administrator who made it (on a cost centre, or many). */
async function recordPreparers(by: string, costCenter: string | null, details: AuditDetailsInput): Promise<void> {
  await recordDataEvent(await actorByEmail(normalizeEmail(by)), "dataEdited", {
    dataset: PREPARERS_DATASET,
    object: costCenter ? { kind: "costCentre", id: costCenter, label: costCenter } : null,
    details,
  });
}

// ---------------------------------------------------------------------------------------------
// Suggestion from the FP&A responsibles

export type Suggestion = {
  responsibles: number;
  /** New assignments to confirm. */
  proposals: Proposal[];
  /** Proposals already in place. */
  already: number;
  unmatched: Unmatched[];
};

export async function suggestFromFpa(): Promise<Suggestion> {
  const [responsibles, costCenters, users] = await Promise.all([listResponsibles(), listCostCenters(), allUserNames()]);
  const { proposals, unmatched } = matchResponsibles(
    responsibles.map((r) => ({
      unit: String(r._id),
      costCenter: r.costCenter ?? "",
      userResponsible: r.userResponsible ?? "",
    })),
    costCenters,
    users,
    mayPrepare,
  );
  const current = await preparersOf([...new Set(proposals.map((p) => p.cost_center_concat))]);
  const fresh = proposals.filter((p) => !(current.get(p.cost_center_concat) ?? []).includes(p.user));
  return {
    responsibles: responsibles.length,
    proposals: fresh,
    already: proposals.length - fresh.length,
    unmatched,
  };
}

/** A proposal as the confirmation form carries it: "<cost centre>\t<e-mail>". */
export const pairValue = (cost_center_concat: string, user: string) => `${cost_center_concat}\t${user}`;

// ---------------------------------------------------------------------------------------------
// The screen's forms

const costCenterField = z
  .string({ required_error: t.refused.costCenterRequired })
  .trim()
  .min(1, t.refused.costCenterRequired)
  .max(200, t.refused.costCenterRequired);
const emailField = z
  .string({ required_error: t.refused.emailRequired })
  .trim()
  .min(1, t.refused.emailRequired)
  .max(254, t.refused.emailRequired);

/** The add form's field: a name or an e-mail. */
const userField = z
  .string({ required_error: t.refused.userRequired })
  .trim()
  .min(1, t.refused.userRequired)
  .max(254, t.refused.userRequired);

export const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), cost_center_concat: costCenterField, user: userField }),
  z.object({
    intent: z.literal("remove"),
    cost_center_concat: costCenterField,
    user: emailField,
    confirm: z.literal("1").optional().catch(undefined),
  }),
  z.object({
    intent: z.literal("suggest"),
    par: z
      .array(
        z
          .string()
          .max(500)
          .regex(/^[^\t]+\t[^\t]+$/, t.refused.invalidForm),
      )
      .max(MAX_SUGGESTED_PAIRS, t.refused.tooManyPairs(MAX_SUGGESTED_PAIRS)),
  }),
]);

export type ActionInput = z.infer<typeof actionSchema>;

/** The form's fields as the schema reads them (a File where text is expected fails the schema). */
export function formInput(form: FormData): Record<string, unknown> {
  return {
    intent: form.get("intent"),
    cost_center_concat: form.get("cost_center_concat") ?? undefined,
    user: form.get("user") ?? undefined,
    confirm: form.get("confirm") ?? undefined,
    par: form.getAll("par"),
  };
}

/** The suggestion's pairs as candidates (line = their position in the form, from 1). */
export function pairsAsCandidates(pairs: readonly string[]): Candidate[] {
  return pairs.map((pair, i) => {
    const [cost_center_concat, user] = pair.split("\t");
    return { line: i + 1, cost_center_concat, user };
  });
}

// ---------------------------------------------------------------------------------------------
// What the screen says after a redirect (`?ok=`, `?erro=`)

const count = z.coerce.number().int().min(0).max(10_000_000).catch(0);
const noticeSchema = z.object({
  ok: z.enum(["added", "removed", "suggested", "uploaded"]).optional().catch(undefined),
  cc: z.string().max(200).catch(""),
  email: z.string().max(254).catch(""),
  novos: count,
  existentes: count,
  recusadas: count,
  excel: z
    .string()
    .regex(/^[0-9a-f]{24}$/i)
    .nullable()
    .catch(null),
});

export type Notice = {
  tone: "success" | "error" | "warning";
  title?: string;
  text: string;
  refused: { rows: { line: number; costCenter: string; email: string; reason: string }[]; more: number } | null;
};

/** The notice of the last action (success after its redirect; a template's refusal), from the URL. */
export async function noticeOf(
  url: URL,
  user: string,
  fileError: (code: string) => string | null,
): Promise<Notice | null> {
  const error = url.searchParams.get("erro");
  if (error) {
    const text = fileError(error);
    return text ? { tone: "error", text, refused: null } : null;
  }
  const get = (key: string) => url.searchParams.get(key) ?? undefined;
  const n = noticeSchema.parse({
    ok: get("ok"),
    cc: get("cc") ?? "",
    email: get("email") ?? "",
    novos: get("novos"),
    existentes: get("existentes"),
    recusadas: get("recusadas"),
    excel: get("excel") ?? null,
  });
  if (!n.ok) return null;
  // Said only while true: a crafted or stale link says nothing.
  if (n.ok === "added")
    return (await isPreparer(n.cc, n.email))
      ? { tone: "success", text: t.ok.added(n.email, n.cc), refused: null }
      : null;
  if (n.ok === "removed")
    return (await isPreparer(n.cc, n.email))
      ? null
      : { tone: "success", text: t.ok.removed(n.email, n.cc), refused: null };
  return {
    tone: n.recusadas > 0 ? "warning" : "success",
    title: n.ok === "uploaded" ? t.uploadDone : t.suggestDone,
    text: t.ok.summary(n.novos, n.existentes, n.recusadas),
    refused: await keptRefusals(n.excel, user),
  };
}

/** The redirect parameters of an outcome (the counts, and where its refused rows are kept). */
export function outcomeParams(
  kind: "suggested" | "uploaded",
  outcome: AssignOutcome,
  kept: string | null,
): Record<string, string | number> {
  return {
    ok: kind,
    novos: outcome.assigned,
    existentes: outcome.present,
    recusadas: outcome.refused.length,
    ...(kept ? { excel: kept } : {}),
  };
}
