import type { ReactNode } from "react";
import { reportsTexts as t } from "~/messages";
import { BUSINESS_UNITS } from "~/models/reports.fields";
import { MAX_MONTH, MIN_MONTH } from "./competency-bounds";

/** A labelled select of the five business units (the company filter of every report page). */
export function UnitSelect({
  id,
  name,
  label = t.company,
  defaultValue,
  required = false,
  invalid = false,
  error,
}: {
  id: string;
  name: string;
  label?: string;
  defaultValue: string;
  required?: boolean;
  invalid?: boolean;
  /** The portal's own message under the field (the form then validates itself: `noValidate`). */
  error?: string | null;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        required={required}
        aria-invalid={invalid || error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {required && !defaultValue ? (
          <option value="" disabled>
            —
          </option>
        ) : null}
        {BUSINESS_UNITS.map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled competency month (`<input type="month">`, YYYY-MM) within the spec's bounds. */
export function MonthField({
  id,
  name,
  label = t.period,
  defaultValue,
  max = MAX_MONTH,
  invalid = false,
}: {
  id: string;
  name: string;
  label?: string;
  defaultValue: string;
  max?: string;
  invalid?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="month"
        required
        min={MIN_MONTH}
        max={max}
        defaultValue={defaultValue}
        placeholder="AAAA-MM"
        aria-invalid={invalid || undefined}
      />
    </div>
  );
}

/** Hidden inputs for a form's fixed fields. */
export function HiddenFields({ fields }: { fields: Record<string, string> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** The row of numeric column headers of a report table. */
export function HeaderRow({
  first,
  numeric,
  extra,
}: {
  first: ReactNode;
  numeric: readonly ReactNode[];
  extra?: ReactNode;
}) {
  return (
    <tr>
      <th scope="col">{first}</th>
      {numeric.map((label, i) => (
        <th key={i} scope="col" className="report-num">
          {label}
        </th>
      ))}
      {extra}
    </tr>
  );
}
