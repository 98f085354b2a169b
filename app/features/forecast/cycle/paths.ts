import type { CycleState } from "~/models/forecast-cycle.server";

/** The status board's address, and a link to it with an RF, filters and page (browser-safe). */
export const BOARD_PATH = "/ij/forecast_status";
export const PREPARERS_PATH = "/ij/forecast_preparers";
export const BOARD_PAGE_SIZE = 20;

/** A state as the board shows it: the cycle's, or "Não enviado" once the edit month has ended. */
export type ShownCode = CycleState | "not_submitted";
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
