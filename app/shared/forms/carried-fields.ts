import { useCallback, useRef } from "react";

type FieldElement = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type Typed = { value?: string; checked?: boolean };

const keyOf = (field: FieldElement) =>
  field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")
    ? `${field.name}\u0000${field.value}`
    : field.name;

function isField(target: EventTarget | null): target is FieldElement {
  return (
    target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement
  );
}

function fieldsOf(node: HTMLElement): FieldElement[] {
  return [...node.querySelectorAll<FieldElement>("input[name], textarea[name], select[name]")].filter(
    (f) => !(f instanceof HTMLInputElement && (f.type === "hidden" || f.type === "file")),
  );
}

/** What the person changed in a field, or null when it still holds what the page rendered. */
function typedIn(field: FieldElement): Typed | null {
  if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio"))
    return field.checked !== field.defaultChecked ? { checked: field.checked } : null;
  if (field instanceof HTMLSelectElement)
    return [...field.options].some((o) => o.selected !== o.defaultSelected) ? { value: field.value } : null;
  return field.value !== field.defaultValue ? { value: field.value } : null;
}

/**
 * A page dialog is drawn three times in a row — the server's static markup, the same markup under Suspense once
 * hydrated, then Radix's dialog once its code has loaded — and each is a new DOM tree. What the person typed
 * (or where the cursor was) before a swap would be lost: this ref, put on each version's container, carries the
 * changed fields (by name) and the focused field into the next version.
 */
export function useCarriedFields(): (node: HTMLElement | null) => void {
  const typed = useRef(new Map<string, Typed>());
  const focused = useRef<string | null>(null);
  return useCallback((node: HTMLElement | null) => {
    if (!node) return;
    const fields = fieldsOf(node);
    // Into this version: what was typed in the previous one.
    for (const field of fields) {
      const carried = typed.current.get(keyOf(field));
      if (!carried) continue;
      if (carried.checked !== undefined && field instanceof HTMLInputElement) field.checked = carried.checked;
      else if (carried.value !== undefined) field.value = carried.value;
    }
    // From this version: what was typed before scripts ran, then every later change.
    for (const field of fields) {
      const now = typedIn(field);
      if (now) typed.current.set(keyOf(field), now);
    }
    const record = (event: Event) => {
      if (!isField(event.target) || !event.target.name) return;
      const now = typedIn(event.target);
      if (now) typed.current.set(keyOf(event.target), now);
      else typed.current.delete(keyOf(event.target));
    };
    node.addEventListener("input", record);
    node.addEventListener("change", record);
    node.addEventListener("focusin", (event) => {
      focused.current = isField(event.target) && event.target.name ? event.target.name : null;
    });
    if (document.activeElement && node.contains(document.activeElement) && isField(document.activeElement))
      focused.current = document.activeElement.name;
    else if (focused.current) {
      // The cursor goes back where it was (Radix then keeps focus inside, as it already is).
      fields.find((f) => f.name === focused.current)?.focus();
    }
  }, []);
}
