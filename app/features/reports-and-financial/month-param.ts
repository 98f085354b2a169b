import { z } from "zod";
import { parseMonthKey } from "~/shared/months";
import { MAX_MONTH, MIN_MONTH } from "./competency-bounds";

/**
 * A competency month read from a URL parameter, for loaders (zod stays out of the pages' browser code).
 *
 * A YYYY-MM within the spec's bounds, else null (a URL parameter: bad values are ignored).
 */
export const optionalMonth = z
  .string()
  .refine((t) => parseMonthKey(t) !== null && t >= MIN_MONTH && t <= MAX_MONTH)
  .nullable()
  .catch(null);
