/**
 * The competency months the report screens' pickers allow (spec 001 §5: 1950-12-30 to 2030-12-30), as the
 * <input type="month"> bounds ("YYYY-MM"). The months themselves: app/shared/months.ts.
 */
export const MIN_MONTH = "1950-12";
export const MAX_MONTH = "2030-12";
