import { useId } from "react";
import { MONTH_FROM_PARAM, MONTH_TO_PARAM } from "./month-range";
import { hrTexts } from "./texts";

/**
 * The month range of the HR screens: two month inputs (`mes_inicio`, `mes_fim`, "YYYY-MM") inside the
 * caller's GET form, so the range is in the URL. Where the browser has no month picker the boxes take text,
 * and the server also reads "MM/AAAA". The server decides what is valid and says why (error).
 */
export function MonthRangeFields({
  from,
  to,
  error,
  children,
}: {
  from: string;
  to: string;
  error: string | null;
  children?: React.ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const described = error ? errorId : undefined;
  return (
    <fieldset className="hr-months" aria-describedby={described}>
      <legend>{hrTexts.monthRange}</legend>
      <div className="hr-months__fields">
        <div className="field">
          <label htmlFor={`${id}-from`}>{hrTexts.monthFrom}</label>
          <input
            id={`${id}-from`}
            type="month"
            name={MONTH_FROM_PARAM}
            defaultValue={from}
            aria-invalid={error ? true : undefined}
            placeholder="AAAA-MM"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>{hrTexts.monthTo}</label>
          <input
            id={`${id}-to`}
            type="month"
            name={MONTH_TO_PARAM}
            defaultValue={to}
            aria-invalid={error ? true : undefined}
            placeholder="AAAA-MM"
          />
        </div>
        {children}
      </div>
      {error ? (
        <p id={errorId} className="hr-months__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
