import { Form, Link, useBeforeUnload, useBlocker, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import type { ColumnDef } from "@tanstack/react-table";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import {
  checkGroupEdit,
  checkQuantity,
  type Direction,
  PERCENT_DEFAULT,
  PERCENT_MAX,
  PERCENT_MIN,
  QUANTITY_MAX,
  toFormFilter,
} from "~/features/planning/planning-values";
import { messages } from "~/messages";
import { ExcelPanel } from "~/shared/excel/panel";
import { PageDialog } from "~/shared/forms/page-dialog";
import { Alert } from "~/shared/ui/alert";
import { DataTable } from "~/shared/ui/data-table";
import { Dialog, DialogClose } from "~/shared/ui/dialog";
import { useHydrated } from "~/shared/ui/use-hydrated";
import { HiddenFields, LabelledInput } from "./fields";
import { PlanningHeader, Spinner } from "./planning-header";
import type { ResultRow, ResultsActionData, ResultsView } from "./results.server";
import { BATCH_PARAMS, DIALOG_PARAMS, FORM_FILTER_KEY, type PlanningScreen, searchWithout } from "./screens";
import { planningTexts } from "./texts";
import "./planning.css";

export type ResultsData = ResultsView;

const FORM_ID = "planning-edit";
const pt = (n: number) => n.toLocaleString("pt-BR");

/** An individual edit: the typed text, for the revision of the row it was typed on. */
type Edit = { value: string; revision: number };

function useEdits(data: ResultsData, echoed: Record<string, string> | undefined, datasetKey: string) {
  // A refused save without JavaScript comes back with what was typed: the page starts from it.
  const [edits, setEdits] = useState<Map<string, Edit>>(() => {
    const initial = new Map<string, Edit>();
    for (const row of data.rows)
      if (echoed?.[row.id] !== undefined) initial.set(row.id, { value: echoed[row.id], revision: row.revision });
    return initial;
  });
  // A new page, filter or preview starts unedited.
  const shown = useRef(datasetKey);
  useEffect(() => {
    if (shown.current === datasetKey) return;
    shown.current = datasetKey;
    setEdits(new Map());
  }, [datasetKey]);
  // An edit made on an older revision of its row (saved since, by us or someone else) no longer applies.
  const live = new Map([...edits].filter(([id, e]) => data.rows.some((r) => r.id === id && r.revision === e.revision)));
  const changed = data.rows.filter((r) => {
    const e = live.get(r.id);
    return e !== undefined && e.value.trim() !== String(r.valor);
  });
  const invalid = new Set(
    data.rows.filter((r) => live.has(r.id) && !checkQuantity(live.get(r.id)!.value).ok).map((r) => r.id),
  );
  return {
    valueOf: (row: ResultRow) => live.get(row.id)?.value ?? String(row.valor),
    set: (row: ResultRow, value: string) => setEdits((m) => new Map(m).set(row.id, { value, revision: row.revision })),
    clear: () => setEdits(new Map()),
    changed,
    invalid,
  };
}

function quantityColumn(
  data: ResultsData,
  edits: ReturnType<typeof useEdits>,
  rowErrors: Record<string, string>,
): ColumnDef<ResultRow, unknown> {
  return {
    id: "quantity",
    header: planningTexts.columns.quantity,
    cell: ({ row }) => {
      const r = row.original;
      const label = planningTexts.quantityOf(r.sku, r.channel, r.month);
      if (!data.canWrite) return <span className="planning-quantity">{pt(r.valor)}</span>;
      // Batch mode: the inputs are read-only and show the values multiplied by the factor. Every input of the cell has
      // a key: without them React turned the preview's number input into the hidden id input of the normal grid and
      // back (Back/Forward between the two), writing a record id into a number input on the way.
      if (data.batch) {
        return (
          <input
            key="quantity"
            className="planning-quantity"
            type="number"
            readOnly
            value={r.preview ?? r.valor}
            aria-label={label}
            title={`${pt(r.valor)} → ${pt(r.preview ?? r.valor)}`}
          />
        );
      }
      const error = edits.invalid.has(r.id) ? messages.numberNotValid : rowErrors[r.id];
      const errorId = `quantity-error-${r.id}`;
      return (
        <>
          <input key="id" type="hidden" name={`rows[${row.index}].id`} value={r.id} />
          <input key="revision" type="hidden" name={`rows[${row.index}].revision`} value={r.revision} />
          <input key="loaded" type="hidden" name={`rows[${row.index}].loaded`} value={r.valor} />
          <input
            key="quantity"
            className="planning-quantity"
            type="number"
            inputMode="numeric"
            name={`rows[${row.index}].valor`}
            min={0}
            max={QUANTITY_MAX}
            step={1}
            required
            value={edits.valueOf(r)}
            onChange={(e) => edits.set(r, e.target.value)}
            aria-label={label}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error ? (
            <span key="error" id={errorId} className="field__error">
              {error}
            </span>
          ) : null}
        </>
      );
    },
  };
}

const text = (id: string, header: string, get: (r: ResultRow) => string): ColumnDef<ResultRow, unknown> => ({
  id,
  header,
  cell: ({ row }) => get(row.original),
});

/** The group-edit dialog's form (spec 001 §5): percentage 0 to 1,000,000, step 1, default 10; Increase or Decrease. */
function GroupEditForm({
  data,
  cancelHref,
  keptParams,
}: {
  data: ResultsData;
  cancelHref: string;
  keptParams: [string, string][];
}) {
  const hydrated = useHydrated();
  const [percent, setPercent] = useState(data.groupEditValues.percent || String(PERCENT_DEFAULT));
  const [op, setOp] = useState<Direction>(data.groupEditValues.op === "decrease" ? "decrease" : "increase");
  const check = checkGroupEdit({ percent, op });
  const errors = hydrated ? (check.ok ? [] : check.messages) : data.groupEditErrors;
  // Apply replaces the dialog in the browser's history: Back from the preview goes to the grid, not the dialog.
  return (
    <Form method="get" className="planning-group-edit" noValidate={hydrated} replace>
      <HiddenFields fields={keptParams} />
      {/* The one-time id the preview's save spends: the same preview cannot be saved twice. */}
      <input type="hidden" name="batchId" value={data.newBatchId} />
      <LabelledInput
        label={planningTexts.percentLabel}
        name="percent"
        type="number"
        inputMode="numeric"
        min={PERCENT_MIN}
        max={PERCENT_MAX}
        step={1}
        required
        value={percent}
        onChange={(e) => setPercent(e.target.value)}
        errors={errors.slice(0, 1)}
      />
      <fieldset className="planning-group-edit__ops">
        <legend className="visually-hidden">{planningTexts.groupEditTitle}</legend>
        <label>
          <input
            type="radio"
            name="op"
            value="increase"
            checked={op === "increase"}
            onChange={() => setOp("increase")}
          />{" "}
          {planningTexts.increase}
        </label>
        <label>
          <input
            type="radio"
            name="op"
            value="decrease"
            checked={op === "decrease"}
            onChange={() => setOp("decrease")}
          />{" "}
          {planningTexts.decrease}
        </label>
      </fieldset>
      <div className="dialog__footer">
        <Link className="button button--secondary" to={cancelHref} preventScrollReset>
          {planningTexts.cancel}
        </Link>
        <button type="submit" className="button button--primary" disabled={hydrated && !check.ok}>
          {planningTexts.apply}
        </button>
      </div>
    </Form>
  );
}

function ConflictList({ conflicts }: { conflicts: { id: string; text: string }[] }) {
  if (conflicts.length === 0) return null;
  return (
    <ul className="planning-conflicts">
      {conflicts.map((c) => (
        <li key={c.id}>{c.text}</li>
      ))}
    </ul>
  );
}

function DialogLinkFooter({
  href,
  label,
  primary = false,
}: {
  href: string;
  label: string;
  primary?: boolean;
}): ReactNode {
  return (
    <Link
      className={`button ${primary ? "button--primary" : "button--secondary"}`}
      to={href}
      preventScrollReset
      replace
    >
      {label}
    </Link>
  );
}

/**
 * The results screen of both flows (spec 001 §2 "/ij/plan_edit", "/ij/report_preview"): header with the period,
 * spinner then "Report generated successfully." with the count or "No data found", the server-paged table (20
 * rows, newest first), individual edits, the group edit (batch), reset, save with a confirmation, the saved
 * message with Close, and each row's history. Dialogs and the batch preview live in the URL, so every step also
 * works without JavaScript; with it, the confirmation opens in place and the checks run as you type.
 */
export function ResultsScreen({
  screen,
  data,
  actionData,
}: {
  screen: PlanningScreen;
  data: ResultsData;
  actionData: ResultsActionData | undefined;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const error = actionData?.kind === "error" ? actionData : null;
  const here = location.pathname;
  const edits = useEdits(data, error?.values, `${here}${searchWithout(location.search, DIALOG_PARAMS)}`);
  // The save's confirmation, open for the data and reply it was opened on: a reload (after a save, or a refusal) or a
  // new reply closes it, its work done.
  const [confirmingOn, setConfirmingOn] = useState<{ loadedAt: unknown; actionData: unknown } | null>(null);
  const confirming = confirmingOn?.loadedAt === data.loadedAt && confirmingOn.actionData === actionData;
  const setConfirming = (open: boolean) => setConfirmingOn(open ? { loadedAt: data.loadedAt, actionData } : null);

  // Loading this screen's data (a page, a filter, a preview, a save's reload) — not merely opening a dialog.
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname === here &&
    searchWithout(navigation.location.search, DIALOG_PARAMS) !== searchWithout(location.search, DIALOG_PARAMS);
  const saving = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const clean = `${here}${searchWithout(location.search, [...DIALOG_PARAMS, ...BATCH_PARAMS])}`;
  const withoutDialogs = `${here}${searchWithout(location.search, DIALOG_PARAMS)}`;
  const filterHref = `${screen.filterPath}?${data.filterQuery}`;

  // The planning filter stays in the browser too (spec 001 §2, formFilter), whichever way this page was reached.
  const keptFilter = screen.kind === "plan" ? JSON.stringify(toFormFilter(data.filter, data.skuMode)) : null;
  useEffect(() => {
    if (keptFilter !== null) window.localStorage.setItem(FORM_FILTER_KEY, keptFilter);
  }, [keptFilter]);

  const rowErrors = error?.rowErrors ?? {};
  // The cells read the edits and the URL: rebuilt on every render (20 rows).
  const columns: ColumnDef<ResultRow, unknown>[] = [
    text("date", planningTexts.columns.date, (r) => r.date),
    text("month", planningTexts.columnMonth, (r) => r.month),
    text("sku", planningTexts.columns.sku, (r) => r.sku),
    text("description", planningTexts.columns.description, (r) => r.description),
    quantityColumn(data, edits, rowErrors),
    text("brand", planningTexts.columns.brand, (r) => r.brand),
    text("channel", planningTexts.columns.channel, (r) => r.channel),
    text("hero", planningTexts.columns.hero, (r) => r.hero),
    text("abcd", planningTexts.columns.abcd, (r) => r.abcd),
    text("plcLocal", planningTexts.columns.plcLocal, (r) => r.plcLocal),
    text("category", planningTexts.columns.category, (r) => r.category),
    text("majorCategory", planningTexts.columns.majorCategory, (r) => r.majorCategory),
    {
      id: "history",
      header: planningTexts.historyColumn,
      cell: ({ row }) => (
        <Link
          className="button button--secondary button--small"
          to={`${here}${searchWithout(location.search, DIALOG_PARAMS, { history: row.original.id })}`}
          preventScrollReset
          aria-label={planningTexts.historyOf(row.original.label)}
        >
          {planningTexts.historyColumn}
        </Link>
      ),
    },
  ];

  const dirty = edits.changed.length > 0;
  // Typed quantities are not lost silently: leaving this page's data (another page, filter or address) asks first.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      (currentLocation.pathname !== nextLocation.pathname ||
        searchWithout(currentLocation.search, DIALOG_PARAMS) !== searchWithout(nextLocation.search, DIALOG_PARAMS)),
  );
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!dirty) return;
        event.preventDefault();
        event.returnValue = "";
      },
      [dirty],
    ),
  );
  const canSave = data.batch !== null || (dirty && edits.invalid.size === 0);
  const groupEditHref = `${here}${searchWithout(location.search, [...DIALOG_PARAMS, ...BATCH_PARAMS], { groupEdit: "1" })}`;
  const groupKept = [
    ...new URLSearchParams(searchWithout(location.search, [...DIALOG_PARAMS, ...BATCH_PARAMS, "page"])).entries(),
  ];
  const confirmText = data.batch
    ? planningTexts.confirmBatch(data.batch.label, data.total)
    : planningTexts.confirmIndividual(edits.changed.length);

  return (
    <section className="planning planning--results" aria-busy={loading || saving}>
      <PlanningHeader screen={screen} step={2} filterHref={filterHref} />
      <div className="planning__context">
        <p className="planning__period">
          <strong>{planningTexts.periodLabel}:</strong> {data.period}
        </p>
        <dl className="planning__summary">
          {data.summary.map((s) => (
            <div key={s.label}>
              <dt>{s.label}</dt>
              <dd>{s.values}</dd>
            </div>
          ))}
        </dl>
        <Link className="button button--secondary" to={filterHref}>
          {planningTexts.changeFilter}
        </Link>
      </div>

      <div className="planning__status">
        {/* The success message answers Generate report only: not a reload, a deep link or a page change. */}
        {loading ? (
          <Spinner />
        ) : data.total === 0 ? (
          <Alert tone="info">{messages.noDataFound}</Alert>
        ) : data.generated ? (
          <Alert tone="info">
            {messages.reportGenerated} {planningTexts.itemCount(data.total)}
          </Alert>
        ) : null}
        {data.total > 0 ? (
          <p className="planning__quantity">
            <strong>{planningTexts.totalQuantity}:</strong>{" "}
            <span data-testid="planning-total-quantity">{data.quantity}</span>
          </p>
        ) : null}
      </div>

      {data.excel ? <ExcelPanel excel={data.excel} busy={saving} /> : null}

      {!data.canWrite ? <p className="planning__note">{planningTexts.readOnlyNote}</p> : null}
      {error ? (
        <Alert tone="error" title={error.conflicts.length > 0 ? planningTexts.conflictTitle : undefined}>
          {error.message}
          <ConflictList conflicts={error.conflicts} />
          {error.conflicts.length > 0 ? <span>{planningTexts.conflictHint}</span> : null}
        </Alert>
      ) : null}

      {data.total > 0 ? (
        <Form method="post" id={FORM_ID} className="planning__form" preventScrollReset>
          <input type="hidden" name="intent" value={data.batch ? "lote" : "unitario"} />
          <input type="hidden" name="loadedAt" value={data.loadedAt} />
          {data.batch ? (
            <>
              <input type="hidden" name="percent" value={data.batch.percent} />
              <input type="hidden" name="op" value={data.batch.op} />
              <input type="hidden" name="batchId" value={data.batch.id} />
            </>
          ) : null}
          {data.canWrite ? (
            <div className="planning__toolbar">
              {hydrated && dirty ? (
                <button
                  type="button"
                  className="button button--secondary"
                  disabled
                  title={planningTexts.individualMode(edits.changed.length)}
                >
                  {planningTexts.groupEdit}
                </button>
              ) : (
                <Link className="button button--secondary" to={groupEditHref} preventScrollReset>
                  {planningTexts.groupEdit}
                </Link>
              )}
              <Link className="button button--secondary" to={clean} preventScrollReset onClick={() => edits.clear()}>
                {planningTexts.reset}
              </Link>
              <button
                type={hydrated ? "button" : "submit"}
                className="button button--primary"
                disabled={saving || (hydrated && !canSave)}
                onClick={hydrated ? () => setConfirming(true) : undefined}
              >
                {saving ? planningTexts.saving : planningTexts.save}
              </button>
              <p className="planning__mode" aria-live="polite">
                {data.batch
                  ? planningTexts.batchMode(data.batch.label, data.total)
                  : dirty
                    ? planningTexts.individualMode(edits.changed.length)
                    : null}
              </p>
            </div>
          ) : null}
          <DataTable
            columns={columns}
            rows={data.rows}
            getRowId={(row) => row.id}
            rowCount={data.total}
            page={data.page}
            pageSize={data.pageSize}
            pageParamBase={screen.pageBase}
            emptyText={messages.noDataFound}
            caption={planningTexts.tableCaption}
          />
        </Form>
      ) : null}

      {/* With JavaScript: the confirmation opens in place and its Confirm submits the form above. */}
      {hydrated ? (
        <Dialog
          open={confirming}
          onOpenChange={setConfirming}
          title={planningTexts.confirmTitle}
          description={confirmText}
        >
          <div className="dialog__footer">
            <DialogClose asChild>
              <button type="button" className="button button--secondary">
                {planningTexts.cancel}
              </button>
            </DialogClose>
            <button
              type="submit"
              form={FORM_ID}
              name="confirmed"
              value="1"
              className="button button--primary"
              disabled={saving}
            >
              {planningTexts.confirm}
            </button>
          </div>
        </Dialog>
      ) : null}

      {blocker.state === "blocked" ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : blocker.reset())}
          title={planningTexts.discardTitle}
          description={planningTexts.discardPrompt}
        >
          <div className="dialog__footer">
            <button type="button" className="button button--secondary" onClick={() => blocker.reset()}>
              {planningTexts.keepEditing}
            </button>
            <button type="button" className="button button--danger" onClick={() => blocker.proceed()}>
              {planningTexts.discard}
            </button>
          </div>
        </Dialog>
      ) : null}

      {/* Without JavaScript: the server asks for the confirmation, with the same fields to post again. */}
      <PageDialog
        open={actionData?.kind === "confirm"}
        onClose={() => navigate(withoutDialogs, { replace: true, preventScrollReset: true })}
        title={planningTexts.confirmTitle}
        description={actionData?.kind === "confirm" ? actionData.text : undefined}
      >
        {actionData?.kind === "confirm" ? (
          <Form method="post" preventScrollReset>
            <HiddenFields fields={actionData.fields} />
            <input type="hidden" name="confirmed" value="1" />
            <div className="dialog__footer">
              <Link className="button button--secondary" to={withoutDialogs} preventScrollReset>
                {planningTexts.cancel}
              </Link>
              <button type="submit" className="button button--primary" disabled={saving}>
                {planningTexts.confirm}
              </button>
            </div>
          </Form>
        ) : null}
      </PageDialog>

      <PageDialog
        open={data.groupEdit}
        onClose={() => navigate(clean, { replace: true, preventScrollReset: true })}
        title={planningTexts.groupEditTitle}
        description={planningTexts.groupEditPrompt}
      >
        <GroupEditForm key={location.key} data={data} cancelHref={clean} keptParams={groupKept} />
      </PageDialog>

      <PageDialog
        open={data.saved !== null}
        onClose={() => navigate(withoutDialogs, { replace: true, preventScrollReset: true })}
        title={data.saved?.title ?? messages.editingSaved}
        description={data.saved?.details}
        footer={<DialogLinkFooter href={withoutDialogs} label={messages.close} primary />}
      >
        {data.saved && data.saved.conflicts.length > 0 ? (
          <Alert tone="warning" title={planningTexts.conflictTitle}>
            {planningTexts.conflictIntro}
            <ConflictList conflicts={data.saved.conflicts} />
          </Alert>
        ) : null}
      </PageDialog>

      <PageDialog
        open={data.history !== null}
        onClose={() => navigate(withoutDialogs, { replace: true, preventScrollReset: true })}
        title={planningTexts.historyTitle}
        description={data.history ? [data.history.label, data.history.current].filter(Boolean).join(" · ") : undefined}
        footer={<DialogLinkFooter href={withoutDialogs} label={messages.close} />}
      >
        {data.history && data.history.entries.length > 0 ? (
          <div className="planning-history">
            <table>
              <caption className="visually-hidden">{planningTexts.historyTitle}</caption>
              <thead>
                <tr>
                  <th scope="col">{planningTexts.historyWhen}</th>
                  <th scope="col">{planningTexts.historyWho}</th>
                  <th scope="col">{planningTexts.historyMode}</th>
                  <th scope="col">{planningTexts.historyChange}</th>
                </tr>
              </thead>
              <tbody>
                {data.history.entries.map((e, i) => (
                  <tr key={i}>
                    <td>{e.at}</td>
                    <td>{e.user}</td>
                    <td>{e.mode}</td>
                    <td>{e.change}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : data.history ? (
          <p>{planningTexts.historyEmpty}</p>
        ) : null}
      </PageDialog>
    </section>
  );
}
