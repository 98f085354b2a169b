import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { CycleAction } from "~/models/forecast-cycle.fields";
import { useHydrated } from "~/shared/ui/use-hydrated";
import type { CycleConfirm, CycleView } from "./cycle.server";
import { COMMENT_MAX, needsComment } from "./rules";
import { cycleTexts } from "./texts";

/**
 * The cycle of the review on its page: the state, the preparers, the actions the user may take (each a plain form
 * posted to the page's action, so it works without JavaScript) and the timeline of every transition.
 */
export function CyclePanel({
  cycle,
  error,
  confirm = null,
  compact = false,
}: {
  cycle: CycleView;
  error?: string | null;
  /** The server's question for a submission posted without its confirmation (the page without JavaScript). */
  confirm?: CycleConfirm | null;
  /** On a touch screen the actions and the timeline fold under one summary, so the grid starts near the top. */
  compact?: boolean;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") != null;
  const last = cycle.timeline.at(-1);
  // With JavaScript the submission's question needs no round trip: the loader counted the changed cells.
  const [asked, setAsked] = useState<CycleConfirm | null>(null);
  const [dismissed, setDismissed] = useState<CycleConfirm | null>(null);
  const question = asked ?? (confirm !== dismissed ? confirm : null);
  const askFirst = (comment: string) =>
    setAsked({
      count: cycle.changedSinceSubmission,
      question: cycleTexts.submitQuestion(cycle.changedSinceSubmission),
      comment,
    });
  const tools = (
    <>
      {cycle.actions.length > 0 ? (
        <div className="forecast-cycle__actions">
          {cycle.actions.map((action) => (
            <ActionForm key={action} action={action} busy={busy} onSubmitAsk={action === "submit" ? askFirst : null} />
          ))}
        </div>
      ) : null}
      <SubmitQuestion
        question={question}
        busy={busy}
        onClose={() => {
          setAsked(null);
          setDismissed(confirm);
        }}
      />
      <details className="forecast-cycle__timeline">
        <summary>
          {cycleTexts.timelineTitle} ({cycle.timeline.length})
          {last ? ` · ${cycleTexts.lastEvent(last.who, last.action, last.when)}` : null}
          {last?.comment ? <q className="forecast-cycle__comment">{last.comment}</q> : null}
        </summary>
        {cycle.timeline.length === 0 ? (
          <p>{cycleTexts.timelineEmpty}</p>
        ) : (
          <ol className="forecast-cycle__events">
            {cycle.timeline.map((event, i) => (
              <li key={`${event.when}-${i}`}>
                <time>{event.when}</time> · {event.who} {event.action} ·{" "}
                {cycleTexts.timelineEntry(event.from, event.to)}
                {event.comment ? <q className="forecast-cycle__comment">{event.comment}</q> : null}
              </li>
            ))}
          </ol>
        )}
      </details>
    </>
  );
  const preparers = (
    <span className="forecast-cycle__preparers">
      {cycle.preparers.length > 0
        ? `${cycleTexts.preparersLabel}: ${cycle.preparers.join(", ")}`
        : cycleTexts.noPreparers}
    </span>
  );
  // On the state's line (no line of its own: the grid starts where it did).
  const changes = (
    <Link className="forecast-cycle__changes" to={cycle.changesHref}>
      {cycleTexts.changesLink}
    </Link>
  );
  const state = (
    <span className={`forecast-cycle__state forecast-cycle__state--${cycle.shown.code}`} data-testid="cycle-state">
      {cycle.shown.label}
    </span>
  );
  const errorLine = error ? (
    <p className="forecast-cycle__error" role="alert">
      {error}
    </p>
  ) : null;
  if (compact)
    return (
      <section className="forecast-cycle forecast-cycle--compact" aria-label={cycleTexts.stateTitle}>
        <div className="forecast-cycle__line">
          {state}
          <details className="forecast-cycle__more" open={error ? true : undefined}>
            <summary>{cycleTexts.moreActions(cycle.actions.length)}</summary>
            {preparers}
            {changes}
            {tools}
          </details>
        </div>
        {errorLine}
      </section>
    );
  return (
    <section className="forecast-cycle" aria-labelledby="forecast-cycle-title">
      <p className="forecast-cycle__line">
        <strong id="forecast-cycle-title" className="forecast-cycle__title">
          {cycleTexts.stateTitle}:
        </strong>{" "}
        {state}
        {preparers}
        {changes}
      </p>
      {errorLine}
      {tools}
    </section>
  );
}

/**
 * "Enviar para revisão?": the cells changed since the last submission, then a form that sends it confirmed (with the
 * comment typed), or a way back. Inline beside the actions, not a modal: without JavaScript the server's answer shows
 * the same box.
 */
function SubmitQuestion({
  question,
  busy,
  onClose,
}: {
  question: CycleConfirm | null;
  busy: boolean;
  onClose: () => void;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  if (!question) return null;
  return (
    <section className="forecast-cycle__confirm" aria-labelledby="forecast-cycle-confirm" aria-live="polite">
      <p id="forecast-cycle-confirm">{question.question}</p>
      <Form method="post" onSubmit={onClose}>
        <input type="hidden" name="intent" value="submit" />
        <input type="hidden" name="confirm" value="1" />
        <input type="hidden" name="comment" value={question.comment} />
        <button type="submit" className="button button--primary" disabled={busy}>
          {cycleTexts.submitConfirm}
        </button>{" "}
        <Link
          className="button button--secondary"
          to={`${location.pathname}${location.search}`}
          replace
          onClick={(event) => {
            if (!hydrated) return;
            event.preventDefault();
            onClose();
          }}
        >
          {cycleTexts.submitCancel}
        </Link>
      </Form>
    </section>
  );
}

function ActionForm({
  action,
  busy,
  onSubmitAsk,
}: {
  action: CycleAction;
  busy: boolean;
  /** Asks before it posts (a submission), with the comment typed; null: the form posts as it is. */
  onSubmitAsk: ((comment: string) => void) | null;
}) {
  const required = needsComment(action);
  const id = `cycle-comment-${action}`;
  const button = (
    <button
      type="submit"
      className={`button ${required || action === "withdraw" ? "button--secondary" : "button--primary"}`}
      disabled={busy}
    >
      {cycleTexts.actions[action]}
    </button>
  );
  // Returning and reopening need their reason written; submitting and approving take an optional comment, folded away
  // so the grid stays near the top of a phone's screen.
  return (
    <Form
      method="post"
      className={`forecast-cycle__form forecast-cycle__form--${action}`}
      onSubmit={
        onSubmitAsk
          ? (event) => {
              event.preventDefault();
              const comment = new FormData(event.currentTarget).get("comment");
              onSubmitAsk(typeof comment === "string" ? comment : "");
            }
          : undefined
      }
    >
      <input type="hidden" name="intent" value={action} />
      {required ? (
        <>
          <label htmlFor={id}>
            {action === "return" ? cycleTexts.returnCommentLabel : cycleTexts.reopenReasonLabel}
          </label>
          <textarea id={id} name="comment" rows={2} maxLength={COMMENT_MAX} required />
          {button}
        </>
      ) : (
        <>
          {button}
          <details className="forecast-cycle__optional">
            <summary>{cycleTexts.commentOptional}</summary>
            <textarea id={id} name="comment" rows={2} maxLength={COMMENT_MAX} aria-label={cycleTexts.commentOptional} />
          </details>
        </>
      )}
    </Form>
  );
}
