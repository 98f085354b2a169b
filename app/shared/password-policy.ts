/**
 * The new-password policy. Spec 000 §5 states two rules (the helper text asks for 8 characters with
 * 1 uppercase letter and 1 special character; the validation also asks for a lowercase letter and a
 * digit); we enforce the stricter one, and the hint names every rule it checks. Pure and free of zod: shared by the browser and the server (the zod
 * schemas built on it are in password-schema.ts, for the server).
 */

export const PASSWORD_MIN_LENGTH = 8;

export type PasswordRule = "minLength" | "uppercase" | "lowercase" | "digit" | "special";

/** The confirmation differs from the password (spec 000 §5, verbatim; `messages.passwordMismatch`). */
export const passwordMismatchMessage = "Por favor verifique se as senhas correspondem.";

/** Portuguese text for each unmet rule (ours: the spec gives only the helper text). */
export const passwordRuleMessages: Record<PasswordRule, string> = {
  minLength: `A senha deve ter no mínimo ${PASSWORD_MIN_LENGTH} caracteres.`,
  uppercase: "A senha deve ter pelo menos 1 letra maiúscula.",
  lowercase: "A senha deve ter pelo menos 1 letra minúscula.",
  digit: "A senha deve ter pelo menos 1 número.",
  special: "A senha deve ter pelo menos 1 caractere especial.",
};

/** Each rule as the hint names it; the hint lists them all, so it never promises less than the validator asks. */
export const passwordRulePhrases: Record<PasswordRule, string> = {
  minLength: `no mínimo ${PASSWORD_MIN_LENGTH} caracteres`,
  uppercase: "1 letra maiúscula",
  lowercase: "1 letra minúscula",
  digit: "1 número",
  special: "1 caractere especial",
};

/** The hint above a new password (ours, in the spec's words, naming every rule the spec's validation checks). */
export const passwordHelperText = `A senha deve ter ${passwordRulePhrases.minLength}, com pelo menos ${[
  passwordRulePhrases.uppercase,
  passwordRulePhrases.lowercase,
  passwordRulePhrases.digit,
].join(", ")} e ${passwordRulePhrases.special}.`;

export const passwordRequiredMessage = "Informe a nova senha.";
export const confirmationRequiredMessage = "Confirme a nova senha.";

const tests: Array<[PasswordRule, (p: string) => boolean]> = [
  ["minLength", (p) => [...p].length >= PASSWORD_MIN_LENGTH],
  ["uppercase", (p) => /\p{Lu}/u.test(p)],
  ["lowercase", (p) => /\p{Ll}/u.test(p)],
  ["digit", (p) => /\p{Nd}/u.test(p)],
  // Anything that is neither a letter nor a digit counts as special, as Cognito does (including space).
  ["special", (p) => /[^\p{L}\p{Nd}]/u.test(p)],
];

/** The rules a password does not meet, in a fixed order; empty when it is acceptable. */
export function checkPassword(password: string): PasswordRule[] {
  return tests.filter(([, ok]) => !ok(password)).map(([rule]) => rule);
}

export function isPasswordValid(password: string): boolean {
  return checkPassword(password).length === 0;
}

/** The messages of a new password and its confirmation, by field; empty when both are acceptable. */
export function newPasswordErrors(input: { password?: unknown; confirmPassword?: unknown }): Record<string, string[]> {
  const password = typeof input.password === "string" && input.password !== "" ? input.password : undefined;
  const confirmation =
    typeof input.confirmPassword === "string" && input.confirmPassword !== "" ? input.confirmPassword : undefined;
  const errors: Record<string, string[]> = {};
  const unmet = password === undefined ? null : checkPassword(password);
  if (unmet === null) errors.password = [passwordRequiredMessage];
  else if (unmet.length > 0) errors.password = unmet.map((rule) => passwordRuleMessages[rule]);
  if (confirmation === undefined) errors.confirmPassword = [confirmationRequiredMessage];
  else if (password !== undefined && password !== confirmation) errors.confirmPassword = [passwordMismatchMessage];
  return errors;
}
