import type { SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { parseAccessForm } from "./form-schemas";

/** The posted form, or null when the body cannot be read as one (the action answers 400). */
export async function readForm(request: Request): Promise<FormData | null> {
  return request.formData().catch(() => null);
}

/**
 * The conform submission of a posted form, or null when conform refuses it: its reserved `__intent__` and
 * `__state__` fields hold JSON, and a forged value must get a 400 with a message, not a 500.
 */
export function parseSubmission<Schema extends z.ZodTypeAny>(formData: FormData, schema: Schema) {
  try {
    return parseAccessForm(formData, schema);
  } catch {
    return null;
  }
}

/** A reply carrying one form-level message, for a form that could not be read at all. */
export function formErrorReply(message: string): SubmissionResult<string[]> {
  return { status: "error", error: { "": [message] } };
}
