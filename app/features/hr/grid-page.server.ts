import { data } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { HR_DATASET } from "~/features/hr/paths";
import { messages } from "~/messages";
import { HR_COMMENT_MAX } from "~/models/hr.fields";
import {
  branchScopeOf,
  branchVisible,
  countSpentSave,
  type HrAuxRow,
  listAuxRows,
  listStoreUsers,
  newSaveId,
  previewFigureChanges,
  readSaveId,
  type StoreUser,
  saveComment,
  saveFigures,
} from "~/models/hr.server";
import { recordEdit } from "~/platform/audit/data-events.server";
import type { AuditActorInput } from "~/platform/audit/record.server";
import type { ThreadState } from "~/platform/comments/thread-link";
import { excelPanelState } from "~/platform/import/returned-file-jobs.server";
import type { ExcelPanelData } from "~/shared/excel/panel";
import { type Month, monthKey } from "~/shared/months";
import { redirectWithToast } from "~/shared/toast.server";
import { changeLine } from "./change-line";
import { hrThreadMarks } from "./comments.server";
import { type FigureEdit, figureInputName, normalizeComment, readFigureForm } from "./edits";
import { formatFigure } from "./figures";
import { MONTH_FROM_PARAM, MONTH_TO_PARAM, resolveMonthRange } from "./month-range";
import { FILIAL_MAX, hrGridPath } from "./paths";
import { hrTexts } from "./texts";

/** The loader and action behind /ij/rh_edit/{filial} (the route keeps the access checks and the page). */

export function monthRangeOf(url: URL) {
  return resolveMonthRange(
    { from: url.searchParams.get(MONTH_FROM_PARAM), to: url.searchParams.get(MONTH_TO_PARAM) },
    { now: new Date(), useCurrentMonth: getConfig().features.auxCurrentMonth },
  );
}

export type HrGridData = {
  filial: string;
  notFound: boolean;
  canEdit: boolean;
  commentMax: number;
  /** What the month inputs show (the range, or the text that was refused). */
  months: { from: string; to: string };
  monthError: string | null;
  /** The range the rows are for; null when there are no rows to show. */
  range: { from: Month; to: Month } | null;
  rows: HrAuxRow[];
  limited: boolean;
  people: StoreUser[];
  /** Exportar Excel and its way back, once there is a range. */
  excel: ExcelPanelData | null;
  /** A one-time id the page's saves carry (figures and comments): the same save sent again is refused. */
  saveId: string;
  /** The listed rows' comment threads, by row id. */
  threads: Record<string, ThreadState>;
};

/**
 * The branch's auxiliary rows for the months of the URL, sorted by mes_apur then nome, at most 10000 (spec 001 §2,
 * §7), and the branch's people beside them. A branch outside the user's scope answers like an unknown one (404).
 */
export async function loadHrGrid(request: Request, filialParam: string | undefined, email: string, canEdit: boolean) {
  const url = new URL(request.url);
  const filial = (filialParam ?? "").slice(0, FILIAL_MAX + 1);
  const months = monthRangeOf(url);
  const base = {
    filial: filial.slice(0, FILIAL_MAX),
    canEdit,
    commentMax: HR_COMMENT_MAX,
    months: months.ok
      ? { from: monthKey(months.range.from), to: monthKey(months.range.to) }
      : { from: months.from, to: months.to },
    monthError: months.ok ? null : months.error,
    range: null,
    rows: [],
    limited: false,
    people: [],
    excel: null,
    saveId: "",
    threads: {},
  };
  const scope = await branchScopeOf(email);
  if (filial.length > FILIAL_MAX || !(await branchVisible(filial, scope))) {
    return data<HrGridData>({ ...base, notFound: true }, { status: 404 });
  }
  if (!months.ok) return data<HrGridData>({ ...base, notFound: false });
  const [grid, people, excelState, marks] = await Promise.all([
    listAuxRows(filial, months.range),
    listStoreUsers(filial, months.range),
    excelPanelState(url.searchParams, email, HR_DATASET),
    hrThreadMarks(filial),
  ]);
  const threads: Record<string, ThreadState> = {};
  for (const row of grid.rows) {
    const mark = marks.get(row.id);
    if (mark) threads[row.id] = mark;
  }
  const excelHref = `${hrGridPath(filial, months.range).replace(/\?/, "/excel?")}`;
  const excel: ExcelPanelData = {
    exportHref: excelHref,
    importAction: excelHref,
    canImport: base.canEdit,
    ...excelState,
  };
  const saveId = base.canEdit ? newSaveId() : "";
  return data<HrGridData>({
    ...base,
    notFound: false,
    range: months.range,
    rows: grid.rows,
    limited: grid.limited,
    people,
    excel,
    saveId,
    threads,
  });
}

export type HrConfirmData = { lines: string[]; fields: Array<{ name: string; text: string }>; saveId: string };
export type HrGridActionData = {
  error: string | null;
  fieldErrors?: Record<string, string>;
  commentError?: string;
  confirm?: HrConfirmData;
};

/**
 * intent=save: the figure cells (`<field>.<id>`, pt-BR text); without confirmed=1 it answers the list of changes to
 * confirm (the no-JavaScript confirmation), with it the changes are saved. intent=comment: id and comentario. An
 * empty or malformed post gets 400 with a message. Every write is limited to the branch of the URL (a forged id of
 * another branch changes nothing). Both carry the page's one-time `saveId`: a save or comment that id already made
 * is refused with the conflict message (409) and changes nothing.
 */
export async function saveHrGrid(
  request: Request,
  filialParam: string | undefined,
  email: string,
  actor: AuditActorInput = { email },
) {
  const filial = filialParam ?? "";
  const refuse = (body: Omit<HrGridActionData, "error"> & { error?: string | null }, status = 400) =>
    data<HrGridActionData>({ error: null, ...body }, { status });
  const form = await request.formData().catch(() => null);
  const intent = form?.get("intent");
  if (!form || (intent !== "save" && intent !== "comment")) return refuse({ error: messages.invalidForm });
  const saveId = readSaveId(form.get("saveId"));

  let edits: FigureEdit[] = [];
  let comment: { id: string; text: string } | null = null;
  if (intent === "save") {
    const read = readFigureForm(form.entries());
    if (!read.ok)
      return refuse({ error: read.tooMany ? hrTexts.tooManyFields : hrTexts.fixErrors, fieldErrors: read.errors });
    edits = read.edits;
  } else {
    const id = form.get("id");
    const text = form.get("comentario");
    if (typeof id !== "string" || !/^[0-9a-f]{24}$/.test(id) || typeof text !== "string")
      return refuse({ error: messages.invalidForm });
    comment = { id, text: normalizeComment(text) };
    if (comment.text.length > HR_COMMENT_MAX) return refuse({ commentError: hrTexts.commentTooLong(HR_COMMENT_MAX) });
  }

  if (filial.length > FILIAL_MAX || !(await branchVisible(filial, await branchScopeOf(email)))) {
    return refuse({ error: hrTexts.branchNotFound(filial.slice(0, FILIAL_MAX)) }, 404);
  }
  const months = monthRangeOf(new URL(request.url));
  const back = hrGridPath(filial, months.ok ? months.range : months.fallback);
  const saved = () => redirectWithToast(back, { type: "success", description: messages.saved });
  // The audit trail: what was written (rows, never their contents) and the grid that shows each cell's history.
  const audited = (rows: number, what: "figures" | "comment") =>
    recordEdit({
      actor,
      dataset: HR_DATASET,
      screen: "/ij/rh_edit/{filial}",
      rows,
      historyLink: back,
      details: { filial, what },
    });

  try {
    if (comment) {
      const outcome = await saveComment(filial, comment.id, comment.text, email, new Date(), undefined, saveId);
      if (outcome.kind === "notFound") return refuse({ commentError: hrTexts.recordNotFound });
      if (outcome.kind === "conflict") return refuse({ commentError: hrTexts.conflict(1) }, 409);
      if (outcome.kind === "saved") await audited(1, "comment");
      return saved();
    }
    const spent = saveId
      ? await countSpentSave(
          edits.map((e) => e.id),
          saveId,
        )
      : 0;
    if (spent > 0) return refuse({ error: hrTexts.conflict(spent) }, 409);
    if (form.get("confirmed") !== "1") {
      const preview = await previewFigureChanges(filial, edits);
      if (preview.kind === "unknownRecords") return refuse({ error: hrTexts.unknownRecords });
      if (preview.changes.length === 0)
        return redirectWithToast(back, { type: "info", description: hrTexts.noChanges });
      const confirm = {
        lines: preview.changes.map(changeLine),
        fields: preview.changes.map((c) => ({
          name: figureInputName(c.field, c.id),
          text: formatFigure(c.field, c.new),
        })),
        saveId: saveId?.toHexString() ?? "",
      };
      return data<HrGridActionData>({ error: null, confirm });
    }
    const outcome = await saveFigures(filial, edits, email, new Date(), undefined, saveId);
    if (outcome.kind === "unknownRecords") return refuse({ error: hrTexts.unknownRecords });
    if (outcome.kind === "noChanges") return redirectWithToast(back, { type: "info", description: hrTexts.noChanges });
    await audited(outcome.changed, "figures");
    if (outcome.conflicts > 0)
      return redirectWithToast(back, { type: "warning", description: hrTexts.conflict(outcome.conflicts) });
    return saved();
  } catch (error) {
    // The database refused or timed out: say so, keep what the user typed.
    console.error(`[hr] save failed for ${filial}:`, error);
    return refuse({ error: hrTexts.saveFailed }, 503);
  }
}
