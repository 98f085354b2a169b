import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { EMAIL_MAX_LENGTH, RESET_CODE_MAX_LENGTH } from "~/domain/account-fields";
import { newPasswordSchema } from "~/domain/password-policy";
import { messages } from "~/messages";

/**
 * The zod schemas of the access forms, shared by the browser (conform's `onValidate`, so a wrong form is
 * answered before it is posted) and the server (the actions validate everything again). Pure: no server code.
 * Conform turns an empty field into `undefined`, so "required" is a zod `required_error`, not `min(1)`.
 */

/**
 * Zod's own texts are English and only a tampered form can reach them (a file or a repeated field where text
 * belongs): those answer "Não foi possível ler o formulário…". Every other check carries its own message.
 */
const formErrorMap: z.ZodErrorMap = (issue, ctx) =>
  issue.code === z.ZodIssueCode.invalid_type && issue.received !== "undefined" ? { message: messages.invalidForm } : { message: ctx.defaultError };

/** `parseWithZod` with the Portuguese error map: the one way both sides read an access form. */
export function parseAccessForm<Schema extends z.ZodTypeAny>(formData: FormData | URLSearchParams, schema: Schema) {
  return parseWithZod(formData, { schema, errorMap: formErrorMap });
}

const custom = z.ZodIssueCode.custom;
/** Sign-in fields longer than this cannot be read at all (a form answer, not a wrong password). */
const SIGN_IN_FIELD_MAX = 320;

/** A required e-mail, trimmed: one message at a time, "Informe o e-mail de cadastro." before "Informe um e-mail válido.". */
const emailField = z
  .string({ required_error: messages.emailRequired })
  .transform((value) => value.trim())
  .superRefine((email, ctx) => {
    if (!email) ctx.addIssue({ code: custom, message: messages.emailRequired });
    else if (email.length > EMAIL_MAX_LENGTH || !z.string().email().safeParse(email).success) ctx.addIssue({ code: custom, message: messages.invalidEmail });
  });

/**
 * `/` sign-in. The spec has one notice for either field left empty ("Login e senha Obrigatórios!", 000 §5), so
 * the schema's issues are form-level (path []), not per field; an oversized value cannot be read (invalidForm).
 */
export const signInSchema = z
  .object({ email: z.string().trim().optional(), password: z.string().optional() })
  .superRefine((value, ctx) => {
    if ((value.email?.length ?? 0) > SIGN_IN_FIELD_MAX || (value.password?.length ?? 0) > 1024) {
      ctx.addIssue({ code: custom, path: [], message: messages.invalidForm });
    } else if (!value.email || !value.password) {
      ctx.addIssue({ code: custom, path: [], message: messages.loginRequired });
    }
  })
  .transform(({ email, password }) => ({ email: email ?? "", password: password ?? "" }));

/**
 * First access: the new password + confirmation of the shared policy, with the e-mail and the challenge in
 * hidden fields. 2048: the longest challenge session Cognito issues (the local provider's token is far shorter).
 */
export const firstAccessSchema = z.intersection(
  z.object({
    email: z.string().max(EMAIL_MAX_LENGTH, messages.invalidForm).optional(),
    challenge: z.string().max(2048, messages.invalidForm).optional(),
  }),
  newPasswordSchema,
);
/** The hidden fields of first access: an error on them means the form was tampered with, not mistyped. */
export const FIRST_ACCESS_HIDDEN_FIELDS = ["email", "challenge"] as const;

/** The forgot-password dialog of `/`. */
export const forgotPasswordSchema = z.object({ email: emailField });

/** `/recovery/{code}`: e-mail, the code from the e-mail, new password + confirmation. */
export const recoverySchema = z.intersection(
  z.object({
    email: emailField,
    code: z
      .string({ required_error: messages.codeRequired })
      .transform((value) => value.trim())
      .superRefine((code, ctx) => {
        if (!code) ctx.addIssue({ code: custom, message: messages.codeRequired });
        else if (code.length > RESET_CODE_MAX_LENGTH) ctx.addIssue({ code: custom, message: messages.invalidForm });
      }),
  }),
  newPasswordSchema,
);

/** Fields never sent back to the browser in a reply (conform echoes the posted values to refill the form). */
export const SECRET_FIELDS = ["password", "confirmPassword"];

/** `/user/config`, the create dialog. */
export const createUserSchema = z.object({ email: emailField });

/** `/user/config`, the delete confirmation (hidden field). */
export const deleteUserSchema = z.object({ email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH) });

/** `/user/permission`, the tier confirmation (hidden fields); the tier itself is checked by the service. */
export const setTierSchema = z.object({ intent: z.literal("setTier"), user: z.string().trim().min(1).max(EMAIL_MAX_LENGTH), tier: z.string().max(40) });

/** The form-level messages of a reply (`submission.reply({ formErrors })`), for forms without typed fields. */
export function formErrorsOf(result: { error?: Record<string, string[] | null> } | null | undefined): string[] {
  return result?.error?.[""] ?? [];
}
