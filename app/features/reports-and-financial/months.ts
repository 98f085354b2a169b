/**
 * Competency months as forms send them (`<input type="month">`: YYYY-MM) and as screens show them (MM/yyyy).
 * The spec's competency pickers allow 1950-12-30 to 2030-12-30 (spec 001 §5).
 */
export const MIN_MONTH = "1950-12";
export const MAX_MONTH = "2030-12";

export function monthFromText(text: string | null | undefined): Date | null {
  const m = /^(\d{4})-(\d{2})$/.exec(text ?? "");
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return null;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
}

export function monthText(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** MM/yyyy */
export function competencyLabel(date: Date | string): string {
  const d = typeof date === "string" ? new Date(date) : date;
  return `${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
}
