import { z } from "zod";
import { MAX_MONTH, MIN_MONTH, monthFromText } from "./months";

/**
 * A competency month read from a URL parameter, for loaders (zod stays out of the pages' browser code: the
 * month helpers the screens use are in months.ts).
 *
 * A YYYY-MM within the spec's bounds, else null (a URL parameter: bad values are ignored).
 */
export const optionalMonth = z
  .string()
  .regex(/^\d{4}-\d{2}$/)
  .refine((t) => monthFromText(t) !== null && t >= MIN_MONTH && t <= MAX_MONTH)
  .nullable()
  .catch(null);
