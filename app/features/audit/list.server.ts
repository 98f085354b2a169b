import { z } from "zod";
import { AUDIT_EVENTS, AUDIT_OUTCOMES, isAuditDetailAction } from "~/models/audit.fields";
import {
  type AuditEntry,
  type AuditFilter,
  type AuditPageCursor,
  findAuditEntry,
  listAuditPage,
} from "~/models/audit.server";
import { listCostCenters } from "~/models/forecast.server";
import { CYCLE_ACTIONS } from "~/models/forecast-cycle.fields";
import { type EditedCell, readEditedCells } from "~/platform/audit/edited-cells";
import { isLocalPath } from "~/platform/auth/return-to.server";
import { cellHref } from "~/shared/cell-link";
import { formatDateTime, portalTimeZone } from "~/shared/dates";
import { formatNumber, formatPtBr2 } from "~/shared/numbers";
import { AUDIT_PARAMS, AUDIT_PATH } from "./params";
import { auditTexts } from "./texts";

/**
 * The audit screen's server side: its URL (filters, the page's cursor, the entry open in detail) parsed with zod, the
 * page read by seek (newest first; `antes`/`depois` hold the `n` the page starts after), and the rows as the table
 * shows them. Nothing is counted: over a million entries, a page reads PAGE_SIZE + 1 entries through an index.
 */

export const AUDIT_PAGE_SIZE = 50;

const dateText = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s));
const position = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number)
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));

const searchSchema = z.object({
  from: dateText.optional(),
  to: dateText.optional(),
  user: z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(200)
    .regex(/^[^\s$]+$/)
    .optional(),
  event: z.enum(AUDIT_EVENTS).optional(),
  dataset: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[\w.:-]+$/)
    .optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  object: z.string().trim().min(1).max(200).optional(),
  action: z.enum(CYCLE_ACTIONS).optional(),
  before: position.optional(),
  after: position.optional(),
  entry: position.optional(),
});

export type AuditSearch = {
  /** The values to show back in the form (only the valid ones). */
  values: {
    from: string;
    to: string;
    user: string;
    event: string;
    dataset: string;
    outcome: string;
    object: string;
    action: string;
  };
  filter: AuditFilter;
  cursor: AuditPageCursor;
  entry: number | null;
  /** A message when some parameter was refused (and ignored). */
  error: string | null;
};

/** Midnight of a calendar day in `timeZone`, as an instant. */
export function startOfDayIn(day: string, timeZone: string = portalTimeZone()): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const wallOf = (ms: number) => {
    const p = Object.fromEntries(format.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    return Date.UTC(
      Number(p.year),
      Number(p.month) - 1,
      Number(p.day),
      Number(p.hour),
      Number(p.minute),
      Number(p.second),
    );
  };
  // The zone's offset at the guess, applied twice so a change of offset that day lands on the right side.
  let guess = utcMidnight - (wallOf(utcMidnight) - utcMidnight);
  guess = utcMidnight - (wallOf(guess) - guess);
  return new Date(guess);
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * A cost centre named by its code alone ("cc1001"), or in another case, as the entries name it ("CC1001 - Marketing"):
 * the one cost centre whose name it is or starts with; anything else (a file's id, an e-mail) as typed.
 */
async function objectIdOf(typed: string): Promise<string> {
  const lower = typed.toLowerCase();
  const centres = await listCostCenters();
  const exact = centres.find((name) => name.toLowerCase() === lower);
  if (exact) return exact;
  const byCode = centres.filter((name) => name.toLowerCase().startsWith(`${lower} `));
  return byCode.length === 1 ? byCode[0] : typed;
}

/** The audit screen's URL, validated: an invalid parameter is dropped (and said), never passed on. */
export async function parseAuditSearch(url: URL): Promise<AuditSearch> {
  const raw: Record<string, string> = {};
  for (const [key, param] of Object.entries(AUDIT_PARAMS)) {
    const value = url.searchParams.get(param);
    if (value !== null && value.trim() !== "") raw[key] = value;
  }
  let error: string | null = null;
  const parsed: z.infer<typeof searchSchema> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = searchSchema.shape[key as keyof typeof searchSchema.shape];
    const result = field.safeParse(value);
    if (result.success) Object.assign(parsed, { [key]: result.data });
    else error = auditTexts.invalidFilters;
  }
  if (parsed.from && parsed.to && parsed.from > parsed.to) {
    error = auditTexts.invalidPeriod;
    parsed.to = undefined;
  }
  const filter: AuditFilter = {
    from: parsed.from ? startOfDayIn(parsed.from) : undefined,
    to: parsed.to ? startOfDayIn(nextDay(parsed.to)) : undefined,
    actorEmail: parsed.user,
    event: parsed.event,
    dataset: parsed.dataset,
    outcome: parsed.outcome,
    objectId: parsed.object ? await objectIdOf(parsed.object) : undefined,
    action: parsed.action,
  };
  return {
    values: {
      from: parsed.from ?? "",
      to: parsed.to ?? "",
      user: parsed.user ?? "",
      event: parsed.event ?? "",
      dataset: parsed.dataset ?? "",
      outcome: parsed.outcome ?? "",
      object: filter.objectId ?? "",
      action: parsed.action ?? "",
    },
    filter,
    cursor:
      parsed.after !== undefined
        ? { after: parsed.after }
        : parsed.before !== undefined
          ? { before: parsed.before }
          : {},
    entry: parsed.entry ?? null,
    error,
  };
}

/**
 * A row of the table: texts only (the browser gets nothing it does not show). An entry is named by its `n`, the
 * number audit:verify also prints; its chain key (`day`#`seq`, a UTC day) is the chain's, not shown.
 */
export type AuditRow = {
  n: number;
  when: string;
  who: string;
  actorType: string;
  ip: string;
  event: string;
  object: string;
  /** The list narrowed to this entry's object; null when it is about none. */
  objectFilter: string | null;
  outcome: string;
  outcomeCode: string;
};

/** An entry whose details name an action says it ("Decisão: Enviou", "Dados editados: Preparador adicionado"). */
export function eventText(entry: AuditEntry): string {
  const action = entry.details?.action;
  if (isAuditDetailAction(action)) return `${auditTexts.eventLabel(entry.event)}: ${auditTexts.actionLabels[action]}`;
  return auditTexts.eventLabel(entry.event);
}

function objectText(entry: AuditEntry): string {
  if (!entry.object) return entry.dataset ?? auditTexts.none;
  const label = entry.object.label && entry.object.label !== entry.object.id ? ` (${entry.object.label})` : "";
  return `${auditTexts.objectLabel(entry.object.kind)}: ${entry.object.id}${label}`;
}

export function auditRow(entry: AuditEntry): AuditRow {
  return {
    n: entry.n,
    when: formatDateTime(entry.at),
    who: entry.actor?.email ?? auditTexts.nobody,
    actorType: entry.actor?.type ?? auditTexts.none,
    ip: entry.ip ?? auditTexts.none,
    event: eventText(entry),
    object: objectText(entry),
    objectFilter: entry.object
      ? `${AUDIT_PATH}?${new URLSearchParams({ [AUDIT_PARAMS.object]: entry.object.id }).toString().replace(/\+/g, "%20")}`
      : null,
    outcome: auditTexts.outcomeLabel(entry.outcome),
    outcomeCode: entry.outcome,
  };
}

/**
 * One of an entry's details, named: a link where it is one (an edit's cell histories); with `link`, the value is
 * text and the link beside it says `link` (an edited cell, "Abrir").
 */
export type AuditDetailValue = { label: string; value: string; href: string | null; link?: string };

/** The entry open in detail, as the screen shows it. */
export type AuditDetail = AuditRow & {
  /** When, with the zone it is read in named (the portal's). */
  whenWithZone: string;
  actorName: string;
  dataset: string;
  details: AuditDetailValue[];
  prev: string;
  hash: string;
};

/** The grid at an edited cell's history, from the entry's screen link (a path without a query), or null. */
function cellHistoryHref(screen: unknown, cell: EditedCell): string | null {
  if (typeof screen !== "string" || !isLocalPath(screen) || /[?#]/.test(screen)) return null;
  return cellHref(screen, cell.account, cell.month, { history: true });
}

/** An instant the details keep as ISO 8601 (a token's expiry, a refused minute) reads as every moment on the screen. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const shownText = (value: string) => (ISO_INSTANT.test(value) ? formatDateTime(value) : value);

/**
 * An entry's details as named values: an action in words, an edit's cells from what to what (each opening the grid
 * at its history, as does the screen's link), an ISO instant as the portal's date and time, any other value as written.
 */
export function detailValues(details: Record<string, unknown> | undefined): AuditDetailValue[] {
  const edited = readEditedCells(details);
  const labelOf = (key: string) => (auditTexts.detailLabels as Record<string, string>)[key] ?? key;
  return Object.entries(details ?? {}).flatMap(([key, value]): AuditDetailValue[] => {
    const label = labelOf(key);
    if (key === "link" && typeof value === "string" && isLocalPath(value)) {
      const first = edited ? cellHistoryHref(value, edited.cells[0]) : null;
      return [{ label, value: auditTexts.detailOpen, href: first ?? value }];
    }
    if (key === "action" && isAuditDetailAction(value))
      return [{ label, value: auditTexts.actionLabels[value], href: null }];
    if (key === "cells" && edited)
      return edited.cells.map((cell) => {
        const text = auditTexts.editedCell(cell.account, cell.month, formatPtBr2(cell.old), formatPtBr2(cell.new));
        const href = cellHistoryHref(details?.link, cell);
        return href ? { label, value: text, href, link: auditTexts.detailOpen } : { label, value: text, href: null };
      });
    if (key === "moreCells" && edited)
      return edited.more > 0 ? [{ label, value: auditTexts.moreCells(edited.more), href: null }] : [];
    const text =
      typeof value === "string"
        ? shownText(value)
        : typeof value === "number"
          ? formatNumber(value, 2, 0)
          : JSON.stringify(value);
    return [{ label, value: text, href: null }];
  });
}

/** An entry's details in one line of words (the export's column): "Ação: Preparador adicionado; Usuário: …". */
export function detailsText(details: Record<string, unknown> | undefined): string {
  return detailValues(details)
    .map((d) => `${d.label}: ${d.href && !d.link ? d.href : d.value}`)
    .join("; ");
}

export function auditDetail(entry: AuditEntry): AuditDetail {
  return {
    ...auditRow(entry),
    whenWithZone: `${formatDateTime(entry.at)} (${portalTimeZone()})`,
    actorName: entry.actor?.name ?? auditTexts.none,
    dataset: entry.dataset ?? auditTexts.none,
    details: detailValues(entry.details),
    prev: entry.prev,
    hash: entry.hash,
  };
}

/** Everything the screen's loader answers. */
export async function loadAuditScreen(url: URL) {
  const search = await parseAuditSearch(url);
  const [page, entry] = await Promise.all([
    listAuditPage(search.filter, search.cursor, AUDIT_PAGE_SIZE),
    search.entry !== null ? findAuditEntry(search.entry) : Promise.resolve(null),
  ]);
  return {
    values: search.values,
    error: search.error,
    rows: page.entries.map(auditRow),
    olderThan: page.hasOlder && page.entries.length > 0 ? page.entries[page.entries.length - 1].n : null,
    newerThan: page.hasNewer && page.entries.length > 0 ? page.entries[0].n : null,
    paged: search.cursor.after !== undefined || search.cursor.before !== undefined,
    detail: entry ? auditDetail(entry) : null,
    detailMissing: search.entry !== null && !entry,
  };
}

export type AuditScreenData = Awaited<ReturnType<typeof loadAuditScreen>>;
