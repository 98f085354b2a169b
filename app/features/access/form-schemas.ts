import { z } from "zod";
import { EMAIL_MAX_LENGTH } from "~/features/access/account-fields";
import { RETURN_TO_MAX } from "~/platform/auth/return-to-param";
import type { FormErrors } from "~/shared/forms/form-errors";
import { createUserErrors, firstAccessErrors, forgotPasswordErrors, recoveryErrors, signInErrors } from "./form-rules";

/**
 * The zod schemas of the access forms, for the actions (the server validates everything again, whatever the
 * browser did). Their messages come from the same rule functions the browser runs (form-rules.ts), so both sides
 * answer alike; zod adds the shape: strings where text belongs, the typed values the actions use. Conform turns an
 * empty field into `undefined` before zod sees it.
 */

/** A zod refinement that reports `rules`' messages on their fields ("" → the form). */
function withRules<T extends Record<string, unknown>>(rules: (value: T) => FormErrors) {
  return (value: T, ctx: z.RefinementCtx) => {
    for (const [field, list] of Object.entries(rules(value))) {
      for (const message of list)
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: field === "" ? [] : [field], message });
    }
  };
}

const optionalText = z.string().optional();
const trimmed = z.string().trim().optional();

/** `/` sign-in; the page to return to is decided on the server after sign-in (an unreadable one is no return). */
export const signInSchema = z
  .object({
    email: trimmed,
    password: optionalText,
    redirectTo: z.string().max(RETURN_TO_MAX).optional().catch(undefined),
  })
  .superRefine(withRules(signInErrors))
  .transform(({ email, password, redirectTo }) => ({ email: email ?? "", password: password ?? "", redirectTo }));

/** First access: the new password + confirmation, with the e-mail and the challenge in hidden fields. */
export const firstAccessSchema = z
  .object({ email: optionalText, challenge: optionalText, password: optionalText, confirmPassword: optionalText })
  .superRefine(withRules(firstAccessErrors))
  .transform(({ email, challenge, password, confirmPassword }) => ({
    email,
    challenge,
    password: password ?? "",
    confirmPassword: confirmPassword ?? "",
  }));

/** The forgot-password dialog of `/`. */
export const forgotPasswordSchema = z
  .object({ email: trimmed })
  .superRefine(withRules(forgotPasswordErrors))
  .transform(({ email }) => ({ email: email ?? "" }));

/** `/recovery/{code}`: e-mail, the code from the e-mail, new password + confirmation. */
export const recoverySchema = z
  .object({ email: trimmed, code: trimmed, password: optionalText, confirmPassword: optionalText })
  .superRefine(withRules(recoveryErrors))
  .transform(({ email, code, password, confirmPassword }) => ({
    email: email ?? "",
    code: code ?? "",
    password: password ?? "",
    confirmPassword: confirmPassword ?? "",
  }));

/** `/user/config`, the create dialog. */
export const createUserSchema = z
  .object({ email: trimmed })
  .superRefine(withRules(createUserErrors))
  .transform(({ email }) => ({ email: email ?? "" }));

/** `/user/config`, the delete confirmation (hidden field). */
export const deleteUserSchema = z.object({ email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH) });

/** `/user/permission`, the tier confirmation (hidden fields); the tier itself is checked by the service. */
export const setTierSchema = z.object({
  intent: z.literal("setTier"),
  user: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
  tier: z.string().max(40),
});
