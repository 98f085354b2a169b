import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { formTexts } from "./texts";

/** The posted form, or null when the body cannot be read as one (the action answers 400). */
export async function readForm(request: Request): Promise<FormData | null> {
  return request.formData().catch(() => null);
}

/**
 * Zod's own texts are English and only a tampered form can reach them (a file or a repeated field where text
 * belongs): those answer "Não foi possível ler o formulário…". Every other check carries its own message.
 */
const formErrorMap: z.ZodErrorMap = (issue, ctx) =>
  issue.code === z.ZodIssueCode.invalid_type && issue.received !== "undefined"
    ? { message: formTexts.invalidForm }
    : { message: ctx.defaultError };

/**
 * The conform submission of a posted form, or null when conform refuses it: its reserved `__intent__` and
 * `__state__` fields hold JSON, and a forged value must get a 400 with a message, not a 500.
 */
export function parseSubmission<Schema extends z.ZodTypeAny>(formData: FormData, schema: Schema) {
  try {
    return parseWithZod(formData, { schema, errorMap: formErrorMap });
  } catch {
    return null;
  }
}

/** A reply carrying one form-level message, for a form that could not be read at all. */
export function formErrorReply(message: string): SubmissionResult<string[]> {
  return { status: "error", error: { "": [message] } };
}
