import { PLAN_SCREEN } from "./screens";

/** Addresses of a planning row's own pages: its comments, and "Distribuir total" of its SKU in its channel. */
export const PLANNING_THREAD_PATH = `${PLAN_SCREEN.resultsPath}/comentarios`;
export const PLANNING_SPREAD_PATH = `${PLAN_SCREEN.resultsPath}/distribuir`;

export const planningThreadPath = (id: string) => `${PLANNING_THREAD_PATH}?${new URLSearchParams({ linha: id })}`;

/** The spread of a row, on the grid's filter (`filterQuery`, as the results page carries it). */
export const planningSpreadPath = (id: string, filterQuery: string) =>
  `${PLANNING_SPREAD_PATH}?${filterQuery ? `${filterQuery}&` : ""}${new URLSearchParams({ linha: id })}`;
