import { Form, useNavigation } from "@remix-run/react";
import type { CycleAction } from "~/models/forecast-cycle.fields";
import type { CycleView } from "./cycle.server";
import { COMMENT_MAX, needsComment } from "./rules";
import { cycleTexts } from "./texts";

/**
 * The cycle of the review on its page: the state, the preparers, the actions the user may take (each a plain form
 * posted to the page's action, so it works without JavaScript) and the timeline of every transition.
 */
export function CyclePanel({
  cycle,
  error,
  compact = false,
}: {
  cycle: CycleView;
  error?: string | null;
  /** On a touch screen the actions and the timeline fold under one summary, so the grid starts near the top. */
  compact?: boolean;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") != null;
  const last = cycle.timeline.at(-1);
  const tools = (
    <>
      {cycle.actions.length > 0 ? (
        <div className="forecast-cycle__actions">
          {cycle.actions.map((action) => (
            <ActionForm key={action} action={action} busy={busy} />
          ))}
        </div>
      ) : null}
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
      </p>
      {errorLine}
      {tools}
    </section>
  );
}

function ActionForm({ action, busy }: { action: CycleAction; busy: boolean }) {
  const required = needsComment(action);
  const id = `cycle-comment-${action}`;
  const button = (
    <button type="submit" className={`button ${required ? "button--secondary" : "button--primary"}`} disabled={busy}>
      {cycleTexts.actions[action]}
    </button>
  );
  // Returning and reopening need their reason written; submitting and approving take an optional comment, folded away
  // so the grid stays near the top of a phone's screen.
  return (
    <Form method="post" className={`forecast-cycle__form forecast-cycle__form--${action}`}>
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
