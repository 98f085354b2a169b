import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/shared/ui/use-hydrated";
import { HiddenFields, LabelledInput } from "./fields";
import { checkGroupEdit, type Direction, PERCENT_DEFAULT, PERCENT_MAX, PERCENT_MIN } from "./planning-values";
import type { ResultsView } from "./results.server";
import { planningTexts } from "./texts";

function DirectionChoice({ op, onChange }: { op: Direction; onChange: (op: Direction) => void }) {
  return (
    <fieldset className="planning-group-edit__ops">
      <legend className="visually-hidden">{planningTexts.groupEditTitle}</legend>
      <label>
        <input
          type="radio"
          name="op"
          value="increase"
          checked={op === "increase"}
          onChange={() => onChange("increase")}
        />{" "}
        {planningTexts.increase}
      </label>
      <label>
        <input
          type="radio"
          name="op"
          value="decrease"
          checked={op === "decrease"}
          onChange={() => onChange("decrease")}
        />{" "}
        {planningTexts.decrease}
      </label>
    </fieldset>
  );
}

/** The group-edit dialog's form (spec 001 §5): percentage 0 to 1,000,000, step 1, default 10; Increase or Decrease. */
export function GroupEditForm({
  data,
  cancelHref,
  keptParams,
}: {
  data: ResultsView;
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
      <DirectionChoice op={op} onChange={setOp} />
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
