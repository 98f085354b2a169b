import type { ShownCode } from "~/models/forecast-cycle.fields";

/** The status board's address, its page size and query, and a link to it with an RF, filters and page (browser-safe). */
export const BOARD_PATH = "/ij/forecast_status";
export const BOARD_PAGE_SIZE = 20;

export type BoardQuery = { rf: string | null; state: ShownCode | null; level: string | null; page: number };

export function boardHref(query: Partial<BoardQuery>, excel = false): string {
  const params = new URLSearchParams();
  if (query.rf) params.set("rf", query.rf);
  if (query.state) params.set("estado", query.state);
  if (query.level) params.set("nivel", query.level);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  const text = params.toString();
  return `${BOARD_PATH}${excel ? "/excel" : ""}${text ? `?${text}` : ""}`;
}

/** A box's value: the submission's instant (ms) the board showed, then the cost centre ("1801234567890|CC1001 - …"). */
export function decisionValue(submittedAt: Date, cc: string): string {
  return `${submittedAt.getTime()}|${cc}`;
}
