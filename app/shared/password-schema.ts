import { z } from "zod";
import { newPasswordErrors } from "~/shared/password-policy";

/**
 * The new-password policy as a zod schema, for the server (the account service and the access forms' actions):
 * the same rules and messages as `newPasswordErrors` (password-policy.ts), which the browser uses without zod.
 */

/** New password + confirmation (first access and reset by code). */
export const newPasswordSchema = z
  .object({ password: z.string().optional(), confirmPassword: z.string().optional() })
  .superRefine((value, ctx) => {
    for (const [field, list] of Object.entries(newPasswordErrors(value))) {
      for (const message of list) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
    }
  })
  .transform(({ password, confirmPassword }) => ({ password: password ?? "", confirmPassword: confirmPassword ?? "" }));

export type NewPasswordInput = z.infer<typeof newPasswordSchema>;
