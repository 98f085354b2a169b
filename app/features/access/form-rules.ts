import { EMAIL_MAX_LENGTH, RESET_CODE_MAX_LENGTH } from "~/features/access/account-fields";
import type { FormErrors, Payload } from "~/shared/forms/form-errors";
import { formTexts } from "~/shared/forms/texts";
import { newPasswordErrors } from "~/shared/password-policy";
import { accessTexts } from "./texts";

/**
 * The rules of the access forms, as plain functions of the posted fields: the browser answers a wrong form with
 * them before posting (conform's `onValidate`, without shipping zod to every sign-in page), and the server's zod
 * schemas (form-schemas.ts) apply the very same functions, so both sides give the same messages. Each returns the
 * messages by field name; "" holds the form-level ones.
 */

/** Sign-in fields longer than this cannot be read at all (a form answer, not a wrong password). */
export const SIGN_IN_FIELD_MAX = 320;
/** The longest challenge session Cognito issues (the local provider's token is far shorter). */
export const CHALLENGE_MAX_LENGTH = 2048;
/** Fields never sent back to the browser in a reply (conform echoes the posted values to refill the form). */
export const SECRET_FIELDS = ["password", "confirmPassword"];
/** The hidden fields of first access: an error on them means the form was tampered with, not mistyped. */
export const FIRST_ACCESS_HIDDEN_FIELDS = ["email", "challenge"] as const;

/** zod 3's e-mail pattern, so the browser and the account service agree on what an address is. */
const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)([A-Z0-9_'+\-.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9-]*\.)+[A-Z]{2,}$/i;

const text = (value: unknown): string => (typeof value === "string" ? value : "");

function merge(...parts: FormErrors[]): FormErrors {
  const out: FormErrors = {};
  for (const part of parts)
    for (const [field, list] of Object.entries(part)) if (list.length > 0) (out[field] ??= []).push(...list);
  return out;
}

/** A required e-mail: "Informe o e-mail de cadastro." before "Informe um e-mail válido.", one message at a time. */
export function emailErrors(value: unknown, field = "email"): FormErrors {
  const email = text(value).trim();
  if (!email) return { [field]: [accessTexts.emailRequired] };
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return { [field]: [accessTexts.invalidEmail] };
  return {};
}

/** `/` sign-in: the spec has one notice for either field left empty ("Login e senha Obrigatórios!", 000 §5). */
export function signInErrors(payload: Payload): FormErrors {
  const email = text(payload.email).trim();
  const password = text(payload.password);
  if (email.length > SIGN_IN_FIELD_MAX || password.length > 1024) return { "": [formTexts.invalidForm] };
  if (!email || !password) return { "": [accessTexts.loginRequired] };
  return {};
}

/** First access: the new password and its confirmation; the e-mail and challenge are hidden fields. */
export function firstAccessErrors(payload: Payload): FormErrors {
  return merge(
    text(payload.email).length > EMAIL_MAX_LENGTH ? { email: [formTexts.invalidForm] } : {},
    text(payload.challenge).length > CHALLENGE_MAX_LENGTH ? { challenge: [formTexts.invalidForm] } : {},
    newPasswordErrors(payload),
  );
}

/** The forgot-password dialog of `/`. */
export function forgotPasswordErrors(payload: Payload): FormErrors {
  return emailErrors(payload.email);
}

/** `/recovery/{code}`: e-mail, the code from the e-mail, new password + confirmation. */
export function recoveryErrors(payload: Payload): FormErrors {
  const code = text(payload.code).trim();
  return merge(
    emailErrors(payload.email),
    !code
      ? { code: [accessTexts.codeRequired] }
      : code.length > RESET_CODE_MAX_LENGTH
        ? { code: [formTexts.invalidForm] }
        : {},
    newPasswordErrors(payload),
  );
}

/** `/user/config`, the create dialog. */
export function createUserErrors(payload: Payload): FormErrors {
  return emailErrors(payload.email);
}

/** The form-level messages of a reply (`submission.reply({ formErrors })`), for forms without typed fields. */
export function formErrorsOf(result: { error?: Record<string, string[] | null> } | null | undefined): string[] {
  return result?.error?.[""] ?? [];
}
