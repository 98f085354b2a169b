import type { SubmissionResult } from "@conform-to/react";
import { type FormEvent, useState } from "react";
import { useHydrated } from "~/shared/ui/use-hydrated";
import type { FormErrors } from "./form-errors";

/**
 * A one-field form's browser check without a form library: the same rule functions the action's schema applies
 * (form-rules.ts) answer a wrong form before it is posted; after a post, the action's reply (conform's
 * `submission.reply()`) shows the server's messages and refills what was typed. Used where a page must stay light
 * (the user list's create dialog); the sign-in forms use conform's `useForm` with the same rules.
 */
export function useRuleForm(
  rules: (payload: Record<string, unknown>) => FormErrors,
  result: SubmissionResult<string[]> | null,
) {
  const hydrated = useHydrated();
  // What the browser found, kept with the reply it was found under: a new reply from the server replaces it.
  const [local, setLocal] = useState<{ errors: FormErrors; result: typeof result } | null>(null);
  const errors: FormErrors =
    local !== null && local.result === result ? local.errors : ((result?.error ?? {}) as FormErrors);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const found = rules(Object.fromEntries(new FormData(event.currentTarget)));
    if (Object.keys(found).length === 0) return;
    event.preventDefault();
    setLocal({ errors: found, result });
    const first = Object.keys(found).find((name) => name !== "");
    if (first) (event.currentTarget.elements.namedItem(first) as HTMLElement | null)?.focus();
  };
  return {
    errors,
    /** The form's own attributes: the page's messages replace the browser's bubbles once hydrated. */
    formProps: { noValidate: hydrated, onSubmit },
    /** What was posted last, to refill the fields (never secrets: the action hides them). */
    initialValue: (result?.initialValue ?? {}) as Record<string, unknown>,
  };
}
