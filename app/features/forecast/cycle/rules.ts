import {
  CYCLE_ACTIONS,
  type CycleAction,
  type CycleState,
  NOT_SUBMITTED,
  type ShownCode,
  TRANSITIONS,
} from "~/models/forecast-cycle.fields";
import type { PermissionType } from "~/shared/permissions";
import { cycleAnswerTexts } from "./server-texts";
import { STATE_LABELS, shownLabel } from "./texts";

/**
 * Who may move a cost centre × RF, and what a state shows as (docs/decisions.md "Forecast cycle"). Pure: the server
 * decides with it and the page shows the same buttons. The states, actions and transitions themselves are
 * app/models/forecast-cycle.fields.ts.
 *
 * - submit: Em preparação or Devolvido → Enviado, by an assigned preparer who may edit the forecast, in the edit month;
 * - withdraw: Enviado → Em preparação, by the same people in the same month, while no reviewer has decided;
 * - approve / return: Enviado → Aprovado / Devolvido, by a reviewer type who is not a preparer of this cost centre
 *   and neither submitted the version under review nor prepared the cost centre when it was submitted (the
 *   submission's record: leaving the preparers' list afterwards changes nothing), also after the edit month, so a
 *   late decision can still be recorded; returning needs a comment;
 * - reopen: Aprovado → Em preparação, by SYSTEM ADMIN, with a written reason.
 */

export type EditWindow = "open" | "closed" | "upcoming";

export type CycleActor = {
  type: PermissionType;
  /** May write the forecast review (its route's write rule). */
  canEdit: boolean;
  /** Is one of the cost centre's assigned preparers. */
  isPreparer: boolean;
  /** Submitted the version under review, or was one of its preparers when it was submitted (submissionBinds). */
  boundBySubmission: boolean;
  /** Is of a FORECAST_REVIEWER_TYPES type. */
  isReviewer: boolean;
};

export const ADMIN_TYPE: PermissionType = "SYSTEM ADMIN";
export const COMMENT_MAX = 1000;

export const needsComment = (action: CycleAction) => action === "return" || action === "reopen";

/** Why `actor` may not take `action` now (null: allowed). */
export function refusalOf(
  action: CycleAction,
  state: CycleState,
  actor: CycleActor,
  window: EditWindow,
  editMonthLabel: string,
): string | null {
  if (!TRANSITIONS[action].from.includes(state))
    return cycleAnswerTexts.refused.wrongState(cycleAnswerTexts.actionInfinitive[action], STATE_LABELS[state]);
  switch (action) {
    case "submit":
      if (!actor.canEdit) return cycleAnswerTexts.refused.notEditor;
      if (!actor.isPreparer) return cycleAnswerTexts.refused.notPreparer;
      if (window !== "open") return cycleAnswerTexts.refused.notInEditMonth(editMonthLabel);
      return null;
    case "withdraw":
      if (!actor.canEdit) return cycleAnswerTexts.refused.notEditor;
      if (!actor.isPreparer) return cycleAnswerTexts.refused.withdrawNotPreparer;
      if (window !== "open") return cycleAnswerTexts.refused.withdrawNotInEditMonth(editMonthLabel);
      return null;
    case "approve":
    case "return":
      if (!actor.isReviewer) return cycleAnswerTexts.refused.notReviewer;
      if (actor.isPreparer) return cycleAnswerTexts.refused.ownCostCenter;
      if (actor.boundBySubmission) return cycleAnswerTexts.refused.ownSubmission;
      return null;
    case "reopen":
      return actor.type === ADMIN_TYPE ? null : cycleAnswerTexts.refused.notAdmin;
  }
}

/** The submission under review, as recorded: who sent it (null: unknown) and the cost centre's preparers then. */
export type Submission = { by: string | null; preparers: readonly string[] };

/** Whether `email` sent the version under review or prepared the cost centre when it was sent (e-mails, any case). */
export function submissionBinds(email: string, submission: Submission): boolean {
  const me = email.toLowerCase();
  return submission.by?.toLowerCase() === me || submission.preparers.some((p) => p.toLowerCase() === me);
}

export function allowedActions(
  state: CycleState,
  actor: CycleActor,
  window: EditWindow,
  editMonthLabel = "",
): CycleAction[] {
  return CYCLE_ACTIONS.filter((action) => refusalOf(action, state, actor, window, editMonthLabel) === null);
}

/**
 * What the state shows as: once the edit month has ended, a cost centre that was never submitted (or was returned and
 * not sent again) is "Não enviado".
 */
export function shownState(state: CycleState, window: EditWindow): { code: ShownCode; label: string } {
  const code = window === "closed" && TRANSITIONS.submit.from.includes(state) ? NOT_SUBMITTED : state;
  return { code, label: shownLabel(code) };
}
