import { Link } from "@remix-run/react";
import { Alert } from "~/shared/ui/alert";
import { uiTexts } from "~/shared/ui/texts";
import { Spinner } from "./planning-header";
import type { ResultsActionData, ResultsView } from "./results.server";
import { ConflictList } from "./results-dialogs";
import { planningTexts } from "./texts";

/** The period and the filter's summary, with the way back to the filter. */
export function ResultsContext({ data, filterHref }: { data: ResultsView; filterHref: string }) {
  return (
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
  );
}

/** The spinner, then "Report generated successfully." with the count or "No data found", and the filter's total. */
export function ResultsStatus({ data, loading }: { data: ResultsView; loading: boolean }) {
  return (
    <div className="planning__status">
      {/* The success message answers Generate report only: not a reload, a deep link or a page change. */}
      {loading ? (
        <Spinner />
      ) : data.total === 0 ? (
        <Alert tone="info">{uiTexts.noDataFound}</Alert>
      ) : data.generated ? (
        <Alert tone="info">
          {uiTexts.reportGenerated} {planningTexts.itemCount(data.total)}
        </Alert>
      ) : null}
      {data.total > 0 ? (
        <p className="planning__quantity">
          <strong>{planningTexts.totalQuantity}:</strong>{" "}
          <span data-testid="planning-total-quantity">{data.quantity}</span>
        </p>
      ) : null}
    </div>
  );
}

/** A refused save: its message, and the rows someone else changed meanwhile. */
export function SaveError({ error }: { error: Extract<ResultsActionData, { kind: "error" }> | null }) {
  if (!error) return null;
  return (
    <Alert tone="error" title={error.conflicts.length > 0 ? planningTexts.conflictTitle : undefined}>
      {error.message}
      <ConflictList conflicts={error.conflicts} />
      {error.conflicts.length > 0 ? <span>{planningTexts.conflictHint}</span> : null}
    </Alert>
  );
}

/** The form's fields that say which save this is: individual or the previewed batch, and when the page was read. */
export function SaveFields({ data }: { data: ResultsView }) {
  return (
    <>
      <input type="hidden" name="intent" value={data.batch ? "lote" : "unitario"} />
      <input type="hidden" name="loadedAt" value={data.loadedAt} />
      {data.batch ? (
        <>
          <input type="hidden" name="percent" value={data.batch.percent} />
          <input type="hidden" name="op" value={data.batch.op} />
          <input type="hidden" name="batchId" value={data.batch.id} />
        </>
      ) : null}
    </>
  );
}

/**
 * Group edit (a link to its dialog; disabled while individual edits are typed), Reset, Save (with JavaScript it opens
 * the confirmation; without, it posts and the server asks), and the mode the grid is in.
 */
export function ResultsToolbar({
  data,
  hydrated,
  changedCount,
  canSave,
  saving,
  groupEditHref,
  resetHref,
  onReset,
  onSave,
}: {
  data: ResultsView;
  hydrated: boolean;
  changedCount: number;
  canSave: boolean;
  saving: boolean;
  groupEditHref: string;
  resetHref: string;
  onReset: () => void;
  onSave: () => void;
}) {
  const dirty = changedCount > 0;
  return (
    <div className="planning__toolbar">
      {hydrated && dirty ? (
        <button
          type="button"
          className="button button--secondary"
          disabled
          title={planningTexts.individualMode(changedCount)}
        >
          {planningTexts.groupEdit}
        </button>
      ) : (
        <Link className="button button--secondary" to={groupEditHref} preventScrollReset>
          {planningTexts.groupEdit}
        </Link>
      )}
      <Link className="button button--secondary" to={resetHref} preventScrollReset onClick={onReset}>
        {planningTexts.reset}
      </Link>
      <button
        type={hydrated ? "button" : "submit"}
        className="button button--primary"
        disabled={saving || (hydrated && !canSave)}
        onClick={hydrated ? onSave : undefined}
      >
        {saving ? planningTexts.saving : planningTexts.save}
      </button>
      <p className="planning__mode" aria-live="polite">
        {data.batch
          ? planningTexts.batchMode(data.batch.label, data.total)
          : dirty
            ? planningTexts.individualMode(changedCount)
            : null}
      </p>
    </div>
  );
}
