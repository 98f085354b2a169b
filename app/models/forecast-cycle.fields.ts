/**
 * The forecast cycle's vocabulary, defined once (docs/data-contract-workflow.md, `forecast_cycle`): the states a cost
 * centre × RF goes through, the actions that move it and each action's transition, and the states in which its
 * forecast does not change. The model stores them; the cycle's rules, status board, texts and forms read them.
 * Browser-safe and text-free: a new state or action is added here, and the type check asks for its texts and rules.
 */

export const CYCLE_STATES = ["preparing", "submitted", "returned", "approved"] as const;
export type CycleState = (typeof CYCLE_STATES)[number];

/** The state of a cost centre × RF that has no record yet. */
export const INITIAL_STATE: CycleState = "preparing";

export const CYCLE_ACTIONS = ["submit", "withdraw", "approve", "return", "reopen"] as const;
export type CycleAction = (typeof CYCLE_ACTIONS)[number];

/**
 * From which states each action moves, and to which: submit from Em preparação or Devolvido to Enviado; withdraw (the
 * preparer takes a submission back before any decision) from Enviado to Em preparação; approve and return from Enviado;
 * reopen from Aprovado back to Em preparação.
 */
export const TRANSITIONS: Readonly<Record<CycleAction, { from: readonly CycleState[]; to: CycleState }>> = {
  submit: { from: ["preparing", "returned"], to: "submitted" },
  withdraw: { from: ["submitted"], to: "preparing" },
  approve: { from: ["submitted"], to: "approved" },
  return: { from: ["submitted"], to: "returned" },
  reopen: { from: ["approved"], to: "preparing" },
};

/** The states in which the cost centre's forecast cannot change (sent for review, or approved). */
export const FROZEN_STATES: readonly CycleState[] = ["submitted", "approved"];

export const isFrozen = (state: CycleState) => FROZEN_STATES.includes(state);

/** What the status board shows besides the states: a cost centre not sent by the end of its edit month. */
export const NOT_SUBMITTED = "not_submitted";
export const SHOWN_CODES = [...CYCLE_STATES, NOT_SUBMITTED] as const;
export type ShownCode = (typeof SHOWN_CODES)[number];
