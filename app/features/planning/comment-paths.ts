import { PLAN_SCREEN } from "./screens";

/** The comments of the planning grid's rows (their own page), and one row's thread. */
export const PLANNING_THREAD_PATH = `${PLAN_SCREEN.resultsPath}/comentarios`;

export const planningThreadPath = (id: string) => `${PLANNING_THREAD_PATH}?${new URLSearchParams({ linha: id })}`;
