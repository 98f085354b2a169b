import { data, redirect, replace } from "@remix-run/node";
import { ObjectId } from "mongodb";
import { z } from "zod";
import { groupEditSchema, quantityField } from "~/features/planning/form-schemas.server";
import {
  ATTRIBUTES,
  applyMultiplier,
  filterSearchParams,
  type GroupEdit,
  groupEditFromParams,
  groupEditLabel,
  multiplierOf,
  OBJECT_ID_HEX,
  PLANNING_PAGE_SIZE,
  type PlanningFilter,
  pageFromParams,
  parseFilter,
  type SkuMode,
} from "~/features/planning/planning";
import {
  formatChangeStamp,
  formatCompetencyMonth,
  formatPeriod,
  formatPlanningDay,
} from "~/features/planning/planning-dates";
import { excelTexts, messages } from "~/messages";
import { checkFilterAgainstCatalogue } from "~/models/planning-catalogue.server";
import { recordEdit } from "~/platform/audit/data-events.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { excelPanelState } from "~/platform/import/returned-file-jobs.server";
import type { ExcelPanelData } from "~/shared/excel/panel";
import { parseSubmission, readForm } from "~/shared/forms/submission.server";
import { planningThreadMarks } from "./comments.server";
import { PLANNING_DATASET } from "./excel.server";
import { planningThreadPath } from "./row-paths";
import { planningTexts } from "./texts";

/** The plan screen's Excel route: GET exports the filter, POST takes an edited export back. */
export const PLANNING_EXCEL_PATH = "/ij/plan_edit/excel";

import type { ConflictRecord, PlanningSaveRecord } from "~/models/planning.server";
import {
  countPlanningRows,
  type HistoryEntry,
  type PlanningRow,
  planningSaveExists,
  readOwnSave,
  readPlanningPage,
  readRowHistory,
  saveBatch,
  saveQuantities,
} from "~/models/planning-queries.server";
import { GENERATED_PARAM, generatedHeaders, takeGenerated } from "./generated-flash.server";
import { BATCH_PARAMS, DIALOG_PARAMS, type PlanningScreen, searchWithout } from "./screens";

/**
 * The loader and action of the results screens (/ij/plan_edit, /ij/report_preview; spec 001 §2, §4, §5, §7).
 * The route modules guard themselves first and pass the signed-in user and whether they may save.
 */

const pt = (n: number) => n.toLocaleString("pt-BR");

export type ResultRow = {
  id: string;
  revision: number;
  date: string;
  month: string;
  sku: string;
  description: string;
  valor: number;
  /** The quantity after the group edit being previewed (batch mode), else null. */
  preview: number | null;
  brand: string;
  channel: string;
  hero: string;
  abcd: string;
  plcLocal: string;
  category: string;
  majorCategory: string;
  /** "SKU · channel · month": how messages name the row. */
  label: string;
};

export type ConflictView = { id: string; text: string };
export type HistoryView = {
  label: string;
  current: string;
  /** The row's comments (the plan grid's rows), or null. */
  threadHref: string | null;
  entries: { at: string; user: string; mode: string; change: string }[];
} | null;
export type SavedView = { title: string; details: string; conflicts: ConflictView[] } | null;

function rowLabel(row: { sku: string; channel: string; dateRef: Date }): string {
  return planningTexts.rowLabel(row.sku, row.channel, formatCompetencyMonth(row.dateRef));
}

function rowView(row: PlanningRow, edit: GroupEdit | null): ResultRow {
  return {
    id: row._id.toHexString(),
    revision: row.revision ?? 0,
    date: formatPlanningDay(row.creationDate),
    month: formatCompetencyMonth(row.dateRef),
    sku: row.sku,
    description: row.material_description ?? "",
    valor: row.valor,
    preview: edit ? applyMultiplier(row.valor, multiplierOf(edit)) : null,
    brand: row.marca,
    channel: row.channel,
    hero: row.hero,
    abcd: row.abcd,
    plcLocal: row.plc_localsku,
    category: row.category_sku,
    majorCategory: row.categoria_principal_sku,
    label: rowLabel(row),
  };
}

function conflictViews(conflicts: ConflictRecord[]): ConflictView[] {
  return conflicts.map((c) => ({
    id: c.rowId.toHexString(),
    text: planningTexts.conflictRow(rowLabel(c), pt(c.current)),
  }));
}

function historyChange(entry: HistoryEntry): { mode: string; change: string } {
  if (entry.kind === "unitario") {
    const mode =
      entry.via === "excel"
        ? `${planningTexts.historyUnitario} ${excelTexts.viaExcel}`
        : entry.via === "spread"
          ? `${planningTexts.historyUnitario} (${planningTexts.spreadHistory})`
          : planningTexts.historyUnitario;
    return { mode, change: `${pt(entry.old)} → ${pt(entry.new)}` };
  }
  const label = groupEditLabel({ percent: entry.percent, op: entry.op });
  if (entry.old !== undefined && entry.new !== undefined)
    return {
      mode: planningTexts.historyLote,
      change: planningTexts.historyBatchRowChange(label, pt(entry.old), pt(entry.new)),
    };
  return { mode: planningTexts.historyLote, change: planningTexts.historyBatchChange(label, entry.rows) };
}

function savedView(save: PlanningSaveRecord): SavedView {
  const details =
    save.mode === "lote" && save.batch
      ? planningTexts.savedBatch(groupEditLabel({ percent: save.batch.percent, op: save.batch.op }), save.modified)
      : planningTexts.savedRows(save.modified);
  return { title: messages.editingSaved, details, conflicts: conflictViews(save.conflicts) };
}

/** The filter chips of the results header: what the filter holds, by the screen's labels. */
function filterSummary(filter: PlanningFilter): { label: string; values: string }[] {
  const out: { label: string; values: string }[] = [
    {
      label: planningTexts.channel,
      values: filter.chanel.length > 0 ? filter.chanel.join(", ") : planningTexts.allChannels,
    },
  ];
  if (filter.sku.length > 0) out.push({ label: planningTexts.sku, values: filter.sku.join(", ") });
  for (const a of ATTRIBUTES) {
    if (filter[a.param].length > 0)
      out.push({
        label: planningTexts.attributes[a.param],
        values: filter[a.param].map((v) => v || planningTexts.emptyValue).join(", "),
      });
  }
  return out;
}

const objectIdOf = (text: string | null): ObjectId | null =>
  text && OBJECT_ID_HEX.test(text) ? new ObjectId(text) : null;

/**
 * The validated filter of a results URL, or a redirect to the filter screen with the same parameters (which then
 * shows the messages): a filter the browser's checks were bypassed for never reaches the database.
 */
async function requireFilter(url: URL, screen: PlanningScreen): Promise<{ filter: PlanningFilter; skuMode: SkuMode }> {
  const parsed = parseFilter(url.searchParams, screen.kind);
  const back = () =>
    redirect(
      `${screen.filterPath}${searchWithout(url.search, [...DIALOG_PARAMS, ...BATCH_PARAMS, "page"], { check: "1" })}`,
    );
  if (!parsed.ok) throw back();
  const unknown = await checkFilterAgainstCatalogue(parsed.filter);
  if (Object.keys(unknown).length > 0) throw back();
  return { filter: parsed.filter, skuMode: parsed.skuMode };
}

/**
 * The results screen's data. Generate report's `generated=1` is answered with a redirect to the same results without
 * it, carrying the one-time "generated" cookie; the page that reads the cookie says "Report generated successfully."
 * (`generated`) and clears it, so that a reload or a deep link does not say it again (generated-flash.server.ts).
 */
export async function loadResults(
  request: Request,
  user: AuthenticatedUser,
  screen: PlanningScreen,
  canWrite: boolean,
) {
  const url = new URL(request.url);
  if (url.searchParams.get(GENERATED_PARAM) === "1") {
    const target = `${url.pathname}${searchWithout(url.search, [GENERATED_PARAM, ...DIALOG_PARAMS, ...BATCH_PARAMS, "page"])}`;
    throw redirect(target, { headers: await generatedHeaders(target) });
  }
  const flash = await takeGenerated(request);
  const view = {
    ...(await resultsView(url, user, screen, canWrite)),
    generated: flash.key === `${url.pathname}${url.search}`,
  };
  if (!flash.headers) return view;
  // Typed as the view: the page reads the same data either way (single fetch unwraps data()); only a request that
  // carries the cookie gets the wrapper, whose header clears it.
  return data(view, { headers: flash.headers }) as unknown as typeof view;
}

/** What the results screen shows (the loader's data). */
export type ResultsView = Awaited<ReturnType<typeof resultsView>> & { generated: boolean };

async function resultsView(url: URL, user: AuthenticatedUser, screen: PlanningScreen, canWrite: boolean) {
  const { filter, skuMode } = await requireFilter(url, screen);
  // Taken before the page is read: a change that lands during the read still makes a batch of this page stale.
  const loadedAt = new Date();
  const params = url.searchParams;
  const requestedEdit = canWrite && (params.has("percent") || params.has("op"));
  const edit = canWrite ? groupEditFromParams(params) : null;
  const editCheck =
    requestedEdit && !edit
      ? groupEditSchema.safeParse({ percent: params.get("percent") ?? undefined, op: params.get("op") ?? undefined })
      : null;
  const historyId = objectIdOf(params.get("history"));
  const savedId = objectIdOf(params.get("saved"));
  // A preview names the one-time id its save will spend (issued with the group-edit dialog): one without an id gets a
  // fresh one. One whose id a save has spent (Back, Forward, a reload after saving) shows the saved grid, not the
  // preview — without a redirect, so that the same preview's form sent again still answers with its refusal (409).
  const requestedBatchId = edit ? objectIdOf(params.get("batchId")) : null;
  if (edit && !requestedBatchId)
    throw redirect(`${url.pathname}${searchWithout(url.search, [], { batchId: new ObjectId().toHexString() })}`);
  const batchSpent = requestedBatchId !== null && (await planningSaveExists(requestedBatchId));
  const batchId = batchSpent ? null : requestedBatchId;

  const [page, history, saved, excelState] = await Promise.all([
    readPlanningPage(filter, pageFromParams(params, screen.pageBase)),
    historyId ? readRowHistory(filter, historyId) : null,
    savedId ? readOwnSave(savedId, user.email) : null,
    screen.kind === "plan" ? excelPanelState(params, user.email, PLANNING_DATASET) : null,
  ]);

  // The plan grid's comment threads of the listed rows.
  const threads =
    screen.kind === "plan"
      ? await planningThreadMarks(page.rows.map((r) => ({ ...r, id: r._id.toHexString() })))
      : null;

  const historyView: HistoryView = historyId
    ? history
      ? {
          label: rowLabel(history.row),
          current: planningTexts.historyCurrent(pt(history.row.valor)),
          threadHref: screen.kind === "plan" ? planningThreadPath(history.row._id.toHexString()) : null,
          entries: history.entries.map((e) => ({ at: formatChangeStamp(e.at), user: e.user, ...historyChange(e) })),
        }
      : { label: planningTexts.historyNotFound, current: "", threadHref: null, entries: [] }
    : null;

  return {
    filter,
    skuMode,
    filterQuery: filterSearchParams(filter, screen.kind === "plan" ? skuMode : undefined).toString(),
    period: formatPeriod(filter),
    summary: filterSummary(filter),
    rows: page.rows.map((r) => rowView(r, batchId ? edit : null)),
    total: page.total,
    /** The sum of the filter's quantities (valor), pt-BR. */
    quantity: pt(page.quantity),
    page: page.page,
    pageSize: PLANNING_PAGE_SIZE,
    loadedAt: loadedAt.toISOString(),
    canWrite,
    batch: edit && batchId ? { ...edit, label: groupEditLabel(edit), id: batchId.toHexString() } : null,
    /** The one-time id the group-edit dialog hands to the preview it opens. */
    newBatchId: canWrite ? new ObjectId().toHexString() : "",
    groupEdit: canWrite && (params.get("groupEdit") === "1" || editCheck !== null),
    groupEditValues: { percent: params.get("percent") ?? "", op: params.get("op") ?? "" },
    groupEditErrors: editCheck && !editCheck.success ? editCheck.error.issues.map((i) => i.message) : [],
    history: historyView,
    threads,
    saved: saved && saved.status === "done" ? savedView(saved) : null,
    // Exportar Excel and its way back (the plan screen's grid; docs/decisions.md "Uploads and jobs").
    excel: screen.kind === "plan" ? excelPanel(filter, skuMode, canWrite, excelState) : null,
  };
}

function excelPanel(
  filter: PlanningFilter,
  skuMode: SkuMode,
  canImport: boolean,
  state: Pick<ExcelPanelData, "report" | "job"> | null,
): ExcelPanelData {
  const query = filterSearchParams(filter, skuMode).toString();
  return {
    exportHref: `${PLANNING_EXCEL_PATH}?${query}`,
    importAction: `${PLANNING_EXCEL_PATH}?${query}`,
    canImport,
    report: state?.report ?? null,
    job: state?.job ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Saving

const rowSchema = z.object({
  id: z.string().regex(OBJECT_ID_HEX),
  revision: z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number),
  loaded: quantityField,
  valor: quantityField,
});

const unitarioSchema = z.object({
  intent: z.literal("unitario"),
  confirmed: z.literal("1").optional(),
  rows: z.array(rowSchema).min(1).max(PLANNING_PAGE_SIZE),
});

const loteSchema = z
  .object({
    intent: z.literal("lote"),
    confirmed: z.literal("1").optional(),
    loadedAt: z.string().datetime(),
    batchId: z.string().regex(OBJECT_ID_HEX),
  })
  .and(groupEditSchema);

export type ResultsActionData =
  | {
      kind: "error";
      message: string;
      rowErrors: Record<string, string>;
      values: Record<string, string>;
      conflicts: ConflictView[];
    }
  /** The confirmation a form without JavaScript asks for before saving: the same fields again, confirmed. */
  | { kind: "confirm"; text: string; fields: [string, string][] };

const refuse = (status: number, message: string, more: Partial<Extract<ResultsActionData, { kind: "error" }>> = {}) =>
  data<ResultsActionData>({ kind: "error", message, rowErrors: {}, values: {}, conflicts: [], ...more }, { status });

/**
 * The page's URL after a save: no dialog or preview parameters, the save to confirm; a batch goes back to page one. It
 * replaces the page it was saved from in the browser's history (with JavaScript), so Back does not show the preview.
 */
function afterSave(url: URL, saveId: ObjectId, firstPage: boolean) {
  return replace(
    `${url.pathname}${searchWithout(url.search, [...DIALOG_PARAMS, ...BATCH_PARAMS, ...(firstPage ? ["page"] : [])], { saved: saveId.toHexString() })}`,
  );
}

/**
 * The two save actions (spec 001 §2: individual "unitario" and batch "lote"). Every input is validated here
 * whatever the browser did; a refusal answers 400 (409 for a conflict or a stale batch) with a message and
 * writes nothing; a save redirects back to the page with `saved=<id>` (the confirmation).
 */
export async function handleResultsAction(request: Request, user: AuthenticatedUser, screen: PlanningScreen) {
  const url = new URL(request.url);
  const form = await readForm(request);
  const intent = form?.get("intent");
  if (!form || (intent !== "unitario" && intent !== "lote")) return refuse(400, messages.badRequest);
  const parsed = parseFilter(url.searchParams, screen.kind);
  if (!parsed.ok || Object.keys(await checkFilterAgainstCatalogue(parsed.filter)).length > 0)
    return refuse(400, planningTexts.filterInvalid);
  const filter = parsed.filter;
  // Each save in the audit trail (rows written; the screen on this filter shows each row's history).
  const audited = (rows: number, mode: "unitario" | "lote") =>
    recordEdit({
      actor: user,
      dataset: PLANNING_DATASET,
      screen: screen.resultsPath,
      rows,
      historyLink: `${screen.resultsPath}?${filterSearchParams(filter).toString()}`,
      details: { mode },
    });

  if (intent === "unitario") {
    const submission = parseSubmission(form, unitarioSchema);
    if (!submission) return refuse(400, messages.badRequest);
    if (submission.status !== "success") {
      const rowErrors: Record<string, string> = {};
      const values: Record<string, string> = {};
      let malformed = false;
      for (const [key, errors] of Object.entries(submission.error ?? {})) {
        const match = /^rows\[(\d+)\]\.(\w+)$/.exec(key);
        const id = match ? String(form.get(`rows[${match[1]}].id`) ?? "") : "";
        if (match && OBJECT_ID_HEX.test(id) && (match[2] === "valor" || match[2] === "loaded") && errors?.length)
          rowErrors[id] = errors[0];
        else malformed = true;
      }
      for (const [key, value] of form.entries()) {
        const match = /^rows\[(\d+)\]\.valor$/.exec(key);
        const id = match ? String(form.get(`rows[${match[1]}].id`) ?? "") : "";
        if (match && OBJECT_ID_HEX.test(id) && typeof value === "string") values[id] = value.slice(0, 20);
      }
      if (malformed || Object.keys(rowErrors).length === 0) return refuse(400, messages.badRequest);
      return refuse(400, messages.numberNotValid, { rowErrors, values });
    }
    const ids = submission.value.rows.map((r) => r.id);
    if (new Set(ids).size !== ids.length) return refuse(400, messages.badRequest);
    const changed = submission.value.rows.filter((r) => r.valor !== r.loaded);
    if (changed.length === 0) return refuse(400, planningTexts.nothingChanged);
    if (submission.value.confirmed !== "1") {
      const fields: [string, string][] = [["intent", "unitario"]];
      changed.forEach((r, i) => {
        fields.push(
          [`rows[${i}].id`, r.id],
          [`rows[${i}].revision`, String(r.revision)],
          [`rows[${i}].loaded`, String(r.loaded)],
          [`rows[${i}].valor`, String(r.valor)],
        );
      });
      return data<ResultsActionData>({
        kind: "confirm",
        text: planningTexts.confirmIndividual(changed.length),
        fields,
      });
    }
    const outcome = await saveQuantities({
      user: user.email,
      screen: screen.save,
      filter,
      edits: changed.map((r) => ({ id: new ObjectId(r.id), revision: r.revision, valor: r.valor })),
    });
    if (outcome.kind === "outside") return refuse(400, planningTexts.rowsOutsideFilter);
    if (outcome.kind === "conflict")
      return refuse(409, planningTexts.conflictIntro, { conflicts: conflictViews(outcome.conflicts) });
    await audited(outcome.saved, "unitario");
    return afterSave(url, outcome.saveId, false);
  }

  const submission = parseSubmission(form, loteSchema);
  if (!submission) return refuse(400, messages.badRequest);
  if (submission.status !== "success") {
    const percentErrors = submission.error?.percent ?? submission.error?.op;
    return refuse(400, percentErrors?.[0] ?? messages.badRequest);
  }
  const { percent, op, loadedAt, confirmed } = submission.value;
  const edit: GroupEdit = { percent, op };
  const batchId = new ObjectId(submission.value.batchId);
  // The preview was saved already (its form sent again, or shown again by Back): refused before it is even confirmed.
  if (await planningSaveExists(batchId)) return refuse(409, planningTexts.batchStale);
  if (confirmed !== "1") {
    const total = await countPlanningRows(filter);
    return data<ResultsActionData>({
      kind: "confirm",
      text: planningTexts.confirmBatch(groupEditLabel(edit), total),
      fields: [
        ["intent", "lote"],
        ["percent", String(percent)],
        ["op", op],
        ["loadedAt", loadedAt],
        ["batchId", batchId.toHexString()],
      ],
    });
  }
  const outcome = await saveBatch({
    user: user.email,
    screen: screen.save,
    filter,
    edit,
    loadedAt: new Date(loadedAt),
    saveId: batchId,
  });
  if (outcome.kind !== "saved") return refuse(409, planningTexts.batchStale);
  await audited(outcome.modified, "lote");
  return afterSave(url, outcome.saveId, true);
}
