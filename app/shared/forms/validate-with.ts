import { parse } from "@conform-to/react";
import type { FormErrors, Payload } from "./form-errors";

/** conform's `onValidate` for a form checked by `rules` (e.g. features/access/form-rules.ts): the browser's side of a form. */
export function validateWith(rules: (payload: Payload) => FormErrors) {
  return ({ formData }: { formData: FormData }) =>
    parse(formData, {
      resolve: (payload) => {
        const errors = rules(payload);
        return Object.keys(errors).length > 0 ? { error: errors } : { value: payload };
      },
    });
}
