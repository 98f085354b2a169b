import { Form, useNavigation } from "@remix-run/react";
import { Alert } from "~/shared/ui/alert";
import type { ColumnDef } from "~/shared/ui/data-table";
import type { BoardRow } from "./board.server";
import type { BulkOutcome } from "./bulk-decision.server";
import { bulkTexts } from "./bulk-texts";

/**
 * The status board's decision on several submitted cost centres: a box on each submitted row (outside the form, tied
 * to it by `form=`, so the table stays one table) and a form with the comment and the two decisions. Works without
 * JavaScript: the answer is drawn by the same page.
 */

export const DECISION_FORM_ID = "board-decision";

export const decisionColumn: ColumnDef<BoardRow, unknown> = {
  id: "decide",
  header: bulkTexts.selectHeader,
  cell: ({ row }) =>
    row.original.decision ? (
      <input
        type="checkbox"
        name="cc"
        value={row.original.decision}
        form={DECISION_FORM_ID}
        aria-label={bulkTexts.select(row.original.cost_center_concat)}
      />
    ) : null,
};

export function BoardDecisionForm({ rf, answer }: { rf: string; answer: BulkOutcome | undefined }) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" id={DECISION_FORM_ID} className="forecast-board__decision">
      <fieldset>
        <legend>{bulkTexts.legend}</legend>
        <p>{bulkTexts.intro}</p>
        <input type="hidden" name="rf" value={rf} />
        <label>
          {bulkTexts.comment}
          <textarea name="comment" rows={2} maxLength={1000} />
        </label>
        <div className="forecast-board__decision-actions">
          <button type="submit" name="intent" value="approve" className="button" disabled={busy}>
            {bulkTexts.approve}
          </button>
          <button type="submit" name="intent" value="return" className="button button--secondary" disabled={busy}>
            {bulkTexts.return}
          </button>
        </div>
      </fieldset>
      {answer ? <DecisionAnswer answer={answer} /> : null}
    </Form>
  );
}

export function DecisionAnswer({ answer }: { answer: BulkOutcome }) {
  if (!answer.ok) return <Alert tone="error">{answer.message}</Alert>;
  return (
    <Alert tone={answer.refused.length > 0 ? "warning" : "success"} title={answer.message}>
      {answer.refused.length > 0 ? (
        <>
          <p>{bulkTexts.refusedCaption}</p>
          <ul>
            {answer.refused.map((r) => (
              <li key={r.cc}>
                <strong>{r.cc}</strong>: {r.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Alert>
  );
}
