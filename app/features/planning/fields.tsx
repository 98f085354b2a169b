import { type InputHTMLAttributes, useId } from "react";

/** A labelled input with its messages under it (the input points at them), as the planning forms draw them. */
export function LabelledInput({
  label,
  errors,
  ...input
}: { label: string; errors?: readonly string[] } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errorId = `${id}-error`;
  const invalid = (errors?.length ?? 0) > 0;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        {...input}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? errorId : undefined}
      />
      {invalid ? (
        <span id={errorId} className="field__error">
          {errors!.join(" ")}
        </span>
      ) : null}
    </div>
  );
}

/** Name/value pairs as hidden inputs (a GET form keeping the URL's other parameters, a post repeated after a confirmation). */
export function HiddenFields({ fields }: { fields: readonly (readonly [string, string])[] }) {
  return (
    <>
      {fields.map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}
