import { z } from "zod";
import { checkGroupEdit, checkQuantity, type GroupEdit } from "./planning-values";

/**
 * Quantities and the group-edit factor as zod schemas for the server's forms; the rules are planning-values.ts's,
 * which the browser checks without zod.
 */

/** A typed quantity (checkQuantity) as a zod field. */
export const quantityField = z.unknown().transform((input, ctx) => {
  const checked = checkQuantity(input);
  if (checked.ok) return checked.value;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: checked.message });
  return z.NEVER;
});

/** A group edit (checkGroupEdit) as a zod object: its messages on `percent` and `op`. */
export const groupEditSchema = z
  .object({ percent: z.unknown(), op: z.unknown() })
  .transform((input, ctx): GroupEdit => {
    const checked = checkGroupEdit({ percent: input.percent, op: input.op });
    if (checked.ok) return checked.value;
    for (const message of checked.percent) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["percent"], message });
    for (const message of checked.op) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["op"], message });
    return z.NEVER;
  });
