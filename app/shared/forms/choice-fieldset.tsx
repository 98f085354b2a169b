/**
 * A fieldset of choices posted under one name: radio buttons (one of them) or, with `multiple`, checkboxes (any of
 * them), each input inside its label; a plain form field, with or without JavaScript. `hint` is a line under the
 * choices that the fieldset is described by.
 */
export function ChoiceFieldset<Value extends string>({
  legend,
  name,
  choices,
  labelOf = (value) => value,
  checked,
  multiple = false,
  className,
  choiceClassName,
  hint,
}: {
  legend: string;
  name: string;
  choices: readonly Value[];
  labelOf?: (value: Value) => string;
  /** Whether a choice starts checked. */
  checked: (value: Value) => boolean;
  multiple?: boolean;
  /** Classes besides `field`. */
  className?: string;
  choiceClassName?: string;
  hint?: { id: string; text: string };
}) {
  return (
    <fieldset className={className ? `field ${className}` : "field"} aria-describedby={hint?.id}>
      <legend>{legend}</legend>
      {choices.map((value) => (
        <label key={value} className={choiceClassName}>
          <input type={multiple ? "checkbox" : "radio"} name={name} value={value} defaultChecked={checked(value)} />
          {labelOf(value)}
        </label>
      ))}
      {hint ? <small id={hint.id}>{hint.text}</small> : null}
    </fieldset>
  );
}
