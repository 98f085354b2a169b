import { z } from "zod";
import { messages } from "~/messages";

/**
 * The new-password policy. Spec 000 §5 states two rules (the helper text asks for 8 characters with
 * 1 uppercase letter and 1 special character; the validation also asks for a lowercase letter and a
 * digit); we enforce the stricter one. Pure: shared by the browser and the server.
 */

export const PASSWORD_MIN_LENGTH = 8;

export type PasswordRule = "minLength" | "uppercase" | "lowercase" | "digit" | "special";

/** Portuguese text for each unmet rule (ours: the spec gives only the helper text). */
export const passwordRuleMessages: Record<PasswordRule, string> = {
  minLength: `A senha deve ter no mínimo ${PASSWORD_MIN_LENGTH} caracteres.`,
  uppercase: "A senha deve ter pelo menos 1 letra maiúscula.",
  lowercase: "A senha deve ter pelo menos 1 letra minúscula.",
  digit: "A senha deve ter pelo menos 1 número.",
  special: "A senha deve ter pelo menos 1 caractere especial.",
};

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

/** A password field that meets the policy, one issue per unmet rule. */
export const passwordSchema = z.string({ required_error: passwordRequiredMessage }).superRefine((value, ctx) => {
  for (const rule of checkPassword(value)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: passwordRuleMessages[rule] });
  }
});

/** New password + confirmation (first access and reset by code). */
export const newPasswordSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: z.string({ required_error: confirmationRequiredMessage }),
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.confirmPassword) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["confirmPassword"], message: messages.passwordMismatch });
    }
  });

export type NewPasswordInput = z.infer<typeof newPasswordSchema>;
