// Screen: HR auxiliary data editor: /ij/rh_edit/{filial}.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  useRouteError,
  useSubmit,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { canWriteRoute, requireRouteAccess } from "~/features/access/auth.server";
import { PageDialog } from "~/features/access/page-dialog";
import { HR_DATASET } from "~/features/hr/excel.server";
import { ExcelPanel, type ExcelPanelData } from "~/features/uploads-and-jobs/excel-panel";
import { excelReportView } from "~/features/uploads-and-jobs/excel-report.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import { AuxGrid, figureCell, type GridEdits } from "~/features/hr/aux-grid";
import { CommentDialog } from "~/features/hr/comment-dialog";
import { figureInputName, normalizeComment, readFigureForm, type FigureEdit } from "~/features/hr/edits";
import { formatFigure, HR_FIGURE_FIELDS, type HrFigureField } from "~/features/hr/figures";
import { MonthRangeFields } from "~/features/hr/month-range-fields";
import { resolveMonthRange, MONTH_FROM_PARAM, MONTH_TO_PARAM } from "~/features/hr/month-range";
import { monthKey, monthLabel, type Month } from "~/shared/months";
import { hrGridPath, hrPickerPath, FILIAL_MAX } from "~/features/hr/paths";
import { StoreUsers } from "~/features/hr/store-users";
import "~/features/hr/hr.css";
import "~/shared/ui/data-table.css";
import { Alert } from "~/shared/ui/alert";
import { Dialog } from "~/shared/ui/dialog";
import { useHydrated } from "~/shared/ui/use-hydrated";
import { getConfig } from "~/config.server";
import { hrTexts, messages } from "~/messages";
import {
  branchScopeOf,
  branchVisible,
  countSpentSave,
  HR_COMMENT_MAX,
  newSaveId,
  readSaveId,
  listAuxRows,
  listStoreUsers,
  previewFigureChanges,
  saveComment,
  saveFigures,
  type FigureChange,
  type HrAuxRow,
  type StoreUser,
} from "~/models/hr.server";
import { redirectWithToast } from "~/shared/toast.server";

export const meta: MetaFunction = () => [{ title: hrTexts.title }];

/** The longest branch name looked up (anything longer is not a branch). */
/** The URL parameter that opens a row's comment dialog. */
const COMMENT_PARAM = "comentario";
/** How many changes the confirmation lists before "…". */
const CONFIRM_LIST_MAX = 20;

function monthRangeOf(url: URL) {
  return resolveMonthRange(
    { from: url.searchParams.get(MONTH_FROM_PARAM), to: url.searchParams.get(MONTH_TO_PARAM) },
    { now: new Date(), useCurrentMonth: getConfig().features.auxCurrentMonth },
  );
}

type GridData = {
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
};

/**
 * /ij/rh_edit/{filial}?mes_inicio=AAAA-MM&mes_fim=AAAA-MM — the branch's auxiliary rows for the months, sorted
 * by mes_apur then nome, at most 10000 (spec 001 §2, §7), and the branch's people beside them. Editors
 * (HR_EDITOR_TYPES) edit the five figures and the comment; the other admitted types see the same grid
 * read-only. A branch outside the user's scope answers like an unknown one (404).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.rh_edit.$filial", request);
  const url = new URL(request.url);
  const filial = (params.filial ?? "").slice(0, FILIAL_MAX + 1);
  const months = monthRangeOf(url);
  const base = {
    filial: filial.slice(0, FILIAL_MAX),
    canEdit: canWriteRoute(user, "routes/ij.rh_edit.$filial"),
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
  };
  const scope = await branchScopeOf(user.email);
  if (filial.length > FILIAL_MAX || !(await branchVisible(filial, scope))) {
    return data<GridData>({ ...base, notFound: true }, { status: 404 });
  }
  if (!months.ok) return data<GridData>({ ...base, notFound: false });
  const [grid, people, report] = await Promise.all([
    listAuxRows(filial, months.range),
    listStoreUsers(filial, months.range),
    excelReportView(url.searchParams.get("excel"), user.email, HR_DATASET),
  ]);
  const excelHref = `${hrGridPath(filial, months.range).replace(/\?/, "/excel?")}`;
  const excel: ExcelPanelData = { exportHref: excelHref, importAction: excelHref, canImport: base.canEdit, report };
  const saveId = base.canEdit ? newSaveId() : "";
  return data<GridData>({
    ...base,
    notFound: false,
    range: months.range,
    rows: grid.rows,
    limited: grid.limited,
    people,
    excel,
    saveId,
  });
}

/** Opening or closing a comment dialog changes only its URL parameter: the rows need no reload. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const without = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete(COMMENT_PARAM);
    params.sort();
    return params.toString();
  };
  return without(currentUrl) === without(nextUrl) ? false : defaultShouldRevalidate;
};

type ConfirmData = { lines: string[]; fields: Array<{ name: string; text: string }>; saveId: string };
type ActionData = {
  error: string | null;
  fieldErrors?: Record<string, string>;
  commentError?: string;
  confirm?: ConfirmData;
};

function changeLine(change: Pick<FigureChange, "nome" | "mes_apur" | "field" | "old" | "new">): string {
  return hrTexts.confirmChange(
    change.nome,
    monthLabel(change.mes_apur),
    hrTexts.columns[change.field],
    formatFigure(change.field, change.old),
    formatFigure(change.field, change.new),
  );
}

/**
 * intent=save: the figure cells (`<field>.<id>`, pt-BR text); without confirmed=1 it answers the list of
 * changes to confirm (the no-JavaScript confirmation), with it the changes are saved. intent=comment: id and
 * comentario. The saving permission is judged before the form is read (as every route's write rule is): a
 * reader's post gets 403 whatever it carries; an editor's empty or malformed post gets 400 with a message.
 * Every write is limited to the branch of the URL (a forged id of another branch changes nothing). Both carry the
 * page's one-time `saveId`: a save or comment that id already made (the same form sent again, its confirmation shown
 * again by Back) is refused with the conflict message (409) and changes nothing.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.rh_edit.$filial", request, "write");
  const filial = params.filial ?? "";
  const refuse = (body: Omit<ActionData, "error"> & { error?: string | null }, status = 400) =>
    data<ActionData>({ error: null, ...body }, { status });
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

  if (filial.length > FILIAL_MAX || !(await branchVisible(filial, await branchScopeOf(user.email)))) {
    return refuse({ error: hrTexts.branchNotFound(filial.slice(0, FILIAL_MAX)) }, 404);
  }
  const months = monthRangeOf(new URL(request.url));
  const back = hrGridPath(filial, months.ok ? months.range : months.fallback);
  const saved = () => redirectWithToast(back, { type: "success", description: messages.saved });

  try {
    if (comment) {
      const outcome = await saveComment(filial, comment.id, comment.text, user.email, new Date(), undefined, saveId);
      if (outcome.kind === "notFound") return refuse({ commentError: hrTexts.recordNotFound });
      if (outcome.kind === "conflict") return refuse({ commentError: hrTexts.conflict(1) }, 409);
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
      return data<ActionData>({ error: null, confirm });
    }
    const outcome = await saveFigures(filial, edits, user.email, new Date(), undefined, saveId);
    if (outcome.kind === "unknownRecords") return refuse({ error: hrTexts.unknownRecords });
    if (outcome.kind === "noChanges") return redirectWithToast(back, { type: "info", description: hrTexts.noChanges });
    if (outcome.conflicts > 0)
      return redirectWithToast(back, { type: "warning", description: hrTexts.conflict(outcome.conflicts) });
    return saved();
  } catch (error) {
    // The database refused or timed out: say so, keep what the user typed.
    console.error(`[hr] save failed for ${filial}:`, error);
    return refuse({ error: hrTexts.saveFailed }, 503);
  }
}

type PendingChange = { id: string; field: HrFigureField; text: string; value: number; row: HrAuxRow };

/** The typed cells that differ from the stored values, and how many typed cells are invalid. */
function pendingChanges(
  edits: GridEdits,
  rows: ReadonlyMap<string, HrAuxRow>,
): { changes: PendingChange[]; invalid: number } {
  const changes: PendingChange[] = [];
  let invalid = 0;
  for (const [id, fields] of Object.entries(edits)) {
    const row = rows.get(id);
    if (!row) continue;
    for (const field of HR_FIGURE_FIELDS) {
      const typed = fields[field];
      if (typed === undefined) continue;
      const cell = figureCell(row, field, typed);
      if (cell.error) invalid++;
      else if (cell.dirty && cell.value !== null) changes.push({ id, field, text: typed, value: cell.value, row });
    }
  }
  return { changes, invalid };
}

export default function HrGridPage() {
  const page = useLoaderData<typeof loader>();
  // The action answers ActionData or a redirect (with its toast).
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const location = useLocation();
  const navigate = useNavigate();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const [edits, setEdits] = useState<GridEdits>({});
  const [confirming, setConfirming] = useState(false);
  const [clientError, setClientError] = useState<string | null>(null);
  const clearAfterReload = useRef(false);

  const gridUrl = hrGridPath(page.filial, page.range ?? undefined);
  const rowsById = useMemo(() => new Map(page.rows.map((r) => [r.id, r])), [page.rows]);
  const pending = useMemo(() => pendingChanges(edits, rowsById), [edits, rowsById]);
  const commentId = new URLSearchParams(location.search).get(COMMENT_PARAM);
  const commentRow = page.canEdit && commentId ? rowsById.get(commentId) : undefined;

  // A confirmed save reloads the rows: what was typed is now stored (or, on a conflict, replaced by what is).
  useEffect(() => {
    if (!clearAfterReload.current) return;
    clearAfterReload.current = false;
    setEdits({});
  }, [page.rows]);
  useEffect(() => {
    if (actionData?.error || actionData?.fieldErrors) clearAfterReload.current = false;
  }, [actionData]);

  const onEdit = useCallback((id: string, field: HrFigureField, text: string) => {
    setClientError(null);
    setEdits((previous) => ({ ...previous, [id]: { ...previous[id], [field]: text } }));
  }, []);
  const commentHref = useCallback(
    (id: string) => `${gridUrl}${gridUrl.includes("?") ? "&" : "?"}${COMMENT_PARAM}=${id}`,
    [gridUrl],
  );
  const closeComment = () => navigate(gridUrl, { replace: true, preventScrollReset: true });

  const confirmSave = () => {
    const form = new FormData();
    form.set("intent", "save");
    form.set("confirmed", "1");
    form.set("saveId", page.saveId);
    for (const change of pending.changes) form.set(figureInputName(change.field, change.id), change.text);
    clearAfterReload.current = true;
    setConfirming(false);
    submit(form, { method: "post", action: gridUrl, preventScrollReset: true });
  };

  const saving = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname && !saving;
  const serverFieldErrors = actionData?.fieldErrors ?? NO_ERRORS;
  const pageError =
    clientError ?? actionData?.error ?? (actionData?.commentError && !commentRow ? actionData.commentError : null);
  const month = (m: Month) => monthLabel(m);

  return (
    <section className="hr-page hr-page--grid" aria-labelledby="hr-title" aria-busy={loading || saving}>
      <nav className="hr-breadcrumb" aria-label={hrTexts.filtering}>
        <Link to={hrPickerPath(page.filial, page.range ?? undefined)}>{hrTexts.filtering}</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{hrTexts.title}</span>
      </nav>
      <h1 id="hr-title">{hrTexts.title}</h1>
      <p className="hr-page__branch">
        {hrTexts.filial}: <strong>{page.filial}</strong>
      </p>

      {page.notFound ? (
        <>
          <Alert tone="error">{hrTexts.branchNotFound(page.filial)}</Alert>
          <p>
            <Link className="button button--secondary" to={hrPickerPath()}>
              {hrTexts.backToPicker}
            </Link>
          </p>
        </>
      ) : (
        <>
          <Form
            method="get"
            action={hrGridPath(page.filial)}
            className="hr-toolbar"
            key={`${page.months.from}\u0000${page.months.to}`}
          >
            <MonthRangeFields from={page.months.from} to={page.months.to} error={page.monthError}>
              <button type="submit" className="button button--secondary">
                {hrTexts.applyMonths}
              </button>
            </MonthRangeFields>
          </Form>
          {page.canEdit ? null : <Alert tone="info">{hrTexts.readOnly}</Alert>}
          {pageError ? <Alert tone="error">{pageError}</Alert> : null}
          <p className="hr-status" role="status">
            {saving ? messages.savingData : loading ? hrTexts.loading : ""}
          </p>

          {page.range ? (
            <div className="hr-layout">
              <div className="hr-layout__main">
                <p className="hr-count">
                  {hrTexts.rowCount(page.rows.length)} · {month(page.range.from)}
                  {page.range.to !== page.range.from ? ` – ${month(page.range.to)}` : ""}
                </p>
                {page.limited ? <Alert tone="warning">{hrTexts.rowLimitReached(page.rows.length)}</Alert> : null}
                {page.excel && page.rows.length > 0 ? <ExcelPanel excel={page.excel} busy={saving} /> : null}
                {page.rows.length === 0 ? (
                  <p className="hr-empty">{messages.noDataFound}</p>
                ) : page.canEdit ? (
                  <Form
                    method="post"
                    action={gridUrl}
                    className="hr-figures"
                    preventScrollReset
                    onSubmit={(event) => {
                      // With JavaScript: check, then confirm in a dialog and post only the changed cells.
                      event.preventDefault();
                      if (pending.invalid > 0) return setClientError(hrTexts.fixErrors);
                      if (pending.changes.length === 0) return setClientError(hrTexts.noChanges);
                      setClientError(null);
                      setConfirming(true);
                    }}
                  >
                    <input type="hidden" name="intent" value="save" />
                    <input type="hidden" name="saveId" value={page.saveId} />
                    <AuxGrid
                      rows={page.rows}
                      caption={hrTexts.gridCaption(page.filial)}
                      canEdit
                      edits={edits}
                      serverErrors={serverFieldErrors}
                      commentHref={commentHref}
                      onEdit={onEdit}
                    />
                    <div className="hr-savebar">
                      <span className="hr-savebar__count" aria-live="polite">
                        {hydrated
                          ? pending.changes.length > 0
                            ? hrTexts.changedCount(pending.changes.length)
                            : hrTexts.noChanges
                          : null}
                      </span>
                      {hydrated ? (
                        <button
                          type="button"
                          className="button button--secondary"
                          disabled={Object.keys(edits).length === 0 || saving}
                          onClick={() => setEdits({})}
                        >
                          {hrTexts.discard}
                        </button>
                      ) : null}
                      <button
                        type="submit"
                        className="button button--primary"
                        disabled={hydrated && (saving || pending.changes.length === 0)}
                      >
                        {hrTexts.save}
                      </button>
                    </div>
                  </Form>
                ) : (
                  <AuxGrid
                    rows={page.rows}
                    caption={hrTexts.gridCaption(page.filial)}
                    canEdit={false}
                    edits={NO_EDITS}
                    serverErrors={NO_ERRORS}
                    commentHref={commentHref}
                    onEdit={onEdit}
                  />
                )}
              </div>
              <StoreUsers people={page.people} filial={page.filial} />
            </div>
          ) : null}
        </>
      )}

      {commentRow ? (
        <CommentDialog
          key={commentRow.id}
          row={{
            id: commentRow.id,
            nome: commentRow.nome,
            month: monthLabel(commentRow.mes_apur),
            comentario: commentRow.comentario,
          }}
          max={page.commentMax}
          action={commentHref(commentRow.id)}
          closeHref={gridUrl}
          onClose={closeComment}
          error={actionData?.commentError ?? null}
          busy={saving}
          saveId={page.saveId}
        />
      ) : null}

      {/* The confirmation, with JavaScript: the changes typed in the grid. */}
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={hrTexts.confirmTitle}
        description={hrTexts.confirmPrompt(pending.changes.length)}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={() => setConfirming(false)}>
              {messages.cancel}
            </button>
            <button type="button" className="button button--primary" onClick={confirmSave}>
              {messages.confirm}
            </button>
          </>
        }
      >
        <ChangeList
          lines={pending.changes.map((c) =>
            changeLine({
              nome: c.row.nome,
              mes_apur: c.row.mes_apur,
              field: c.field,
              old: c.row[c.field],
              new: c.value,
            }),
          )}
        />
      </Dialog>

      {/* The confirmation without JavaScript: the server's list of changes, posted again with confirmed=1. */}
      {actionData?.confirm ? (
        <PageDialog
          open
          onClose={() => navigate(gridUrl, { replace: true })}
          title={hrTexts.confirmTitle}
          description={hrTexts.confirmPrompt(actionData.confirm.lines.length)}
        >
          <ChangeList lines={actionData.confirm.lines} />
          <Form method="post" action={gridUrl}>
            <input type="hidden" name="intent" value="save" />
            <input type="hidden" name="confirmed" value="1" />
            <input type="hidden" name="saveId" value={actionData.confirm.saveId} />
            {actionData.confirm.fields.map(({ name, text }) => (
              <input key={name} type="hidden" name={name} value={text} />
            ))}
            <div className="dialog__footer">
              <Link className="button button--secondary" to={gridUrl} replace>
                {messages.cancel}
              </Link>
              <button type="submit" className="button button--primary" disabled={saving}>
                {messages.confirm}
              </button>
            </div>
          </Form>
        </PageDialog>
      ) : null}
    </section>
  );
}

const NO_ERRORS: Record<string, string> = {};
const NO_EDITS: GridEdits = {};

function ChangeList({ lines }: { lines: string[] }) {
  const shown = lines.slice(0, CONFIRM_LIST_MAX);
  return (
    <ul className="hr-changes">
      {shown.map((line, i) => (
        <li key={i}>{line}</li>
      ))}
      {lines.length > shown.length ? <li>… +{lines.length - shown.length}</li> : null}
    </ul>
  );
}

/** A loading failure (the database did not answer): say so and offer to try again; 403/404 as everywhere. */
export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && (error.status === 403 || error.status === 404)) return <GeneralErrorBoundary />;
  return (
    <section className="hr-page" aria-labelledby="hr-error-title">
      <h1 id="hr-error-title">{hrTexts.title}</h1>
      <Alert tone="error">{hrTexts.loadFailed}</Alert>
      <p>
        <a className="button button--secondary" href={`${location.pathname}${location.search}`}>
          {hrTexts.retry}
        </a>
      </p>
    </section>
  );
}
