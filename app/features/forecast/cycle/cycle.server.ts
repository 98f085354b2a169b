import { z } from "zod";
import { canAccessRoute } from "~/access";
import { accessContext } from "~/config.server";
import { type ChangedCell, changedCellsBetween, countChangedCells } from "~/models/forecast.server";
import {
  CYCLE_ACTIONS,
  type CycleAction,
  type CycleState,
  INITIAL_STATE,
  isFrozen,
  type ShownCode,
  TRANSITIONS,
} from "~/models/forecast-cycle.fields";
import {
  type CycleEvent,
  type CycleRecord,
  cycleOf,
  lastSubmitterOf,
  preparersOf,
  reviewCycleOf,
  type SubmissionRecord,
  transition,
} from "~/models/forecast-cycle.server";
import { type NoticeInput, notify } from "~/models/notices.server";
import { usersOfTypes } from "~/models/user-permissions.server";
import { recordAudit } from "~/platform/audit/record.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { formatDateTime } from "~/shared/dates";
import { type CalendarDate, monthLabel } from "~/shared/months";
import { DEFAULT_FORECAST_REVIEWER_TYPES, type PermissionType } from "~/shared/permissions";
import { reviewPath } from "../forecast-filter";
import { editWindowOf } from "../release-points";
import type { Review } from "../review.server";
import { keepApprovedFigures } from "../versions/versions.server";
import { bulkTexts } from "./bulk-texts";
import { changesWindow } from "./changes.server";
import {
  allowedActions,
  COMMENT_MAX,
  type CycleActor,
  needsComment,
  refusalOf,
  type Submission,
  shownState,
  submissionBinds,
} from "./rules";
import { cycleAnswerTexts, cycleNoticeTexts } from "./server-texts";
import { cycleTexts, STATE_LABELS } from "./texts";

/**
 * The forecast cycle of one review (RF × cost centre) on the server: what the grid page shows (state, actions the
 * user may take, preparers, timeline) and the transitions, checked here whatever the page sent, kept, and noticed.
 */

const REVIEW_ROUTE = "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat" as const;

export function reviewerTypes(): readonly PermissionType[] {
  return accessContext().forecastReviewerTypes ?? DEFAULT_FORECAST_REVIEWER_TYPES;
}

/** `preparers`: the cost centre's preparers today; `submission`: the version under review's record. */
function actorOf(user: AuthenticatedUser, preparers: readonly string[], submission: Submission): CycleActor {
  return {
    type: user.type,
    canEdit: canAccessRoute(user.type, REVIEW_ROUTE, accessContext(), "write"),
    isPreparer: preparers.includes(user.email),
    boundBySubmission: submissionBinds(user.email, submission),
    isReviewer: reviewerTypes().includes(user.type),
  };
}

/**
 * The submission under review as the cycle's record keeps it. A record written before submissions were recorded
 * names no one: its submitter is then the timeline's last submission (`events` when the caller has them).
 */
async function submissionOf(
  record: CycleRecord | null,
  rf: string,
  cc: string,
  events?: readonly CycleEvent[],
): Promise<Submission> {
  if (record?.submitted_by) return { by: record.submitted_by, preparers: record.preparers_at_submission ?? [] };
  if (record?.state !== "submitted") return { by: null, preparers: [] };
  const by = events
    ? ([...events].reverse().find((e) => e.action === "submit")?.by ?? null)
    : await lastSubmitterOf(rf, cc);
  return { by, preparers: [] };
}

/** Which of the cycle's screens a user of `type` may open (the review filter links to them). */
export function cycleLinksFor(type: PermissionType): { board: boolean; preparers: boolean } {
  return {
    board: canAccessRoute(type, "routes/ij.forecast_status", accessContext()),
    preparers: canAccessRoute(type, "routes/ij.forecast_preparers", accessContext()),
  };
}

export type TimelineView = { when: string; who: string; from: string; to: string; action: string; comment: string };

export type CycleView = {
  state: CycleState;
  shown: { code: ShownCode; label: string };
  frozen: boolean;
  actions: CycleAction[];
  preparers: string[];
  timeline: TimelineView[];
  /** Cells changed since the last submission (since the cycle began, before any): the submission's question names it. */
  changedSinceSubmission: number;
  /** "Alterações a revisar": the cells changed since a reviewer's last view or decision, old → new, by whom. */
  changesHref: string;
};

/**
 * The review's cycle as its page shows it, and the cells the page marks (changes.server.ts's window, read from the
 * same timeline; none before a first submission). One history read serves both where their windows agree.
 */
export async function loadCycle(
  review: Review,
  user: AuthenticatedUser,
  today: CalendarDate,
): Promise<{ view: CycleView; changedCells: ChangedCell[] }> {
  const { calendar, costCenter } = review;
  const cc = costCenter.cost_center_concat;
  // The record, the timeline and the preparers in one round trip.
  const { record, events, preparers } = await reviewCycleOf(calendar.name, cc);
  const submission = await submissionOf(record, calendar.name, cc, events);
  const actor = actorOf(user, preparers, submission);
  // The state is the last transition's (each is kept right after it is made); taking an action checks the state
  // record itself (takeCycleAction, a conditional update).
  const state = events.at(-1)?.to ?? INITIAL_STATE;
  const window = editWindowOf(calendar, today);
  const actions = allowedActions(state, actor, window, monthLabel(calendar.editMonth));
  const changes = changesWindow(events);
  const changedCells =
    changes.from || changes.to ? await changedCellsBetween(calendar.name, cc, changes.from, changes.to) : [];
  const since = record?.submitted_at ?? null;
  // The submission's question counts from the record's submission; the marks' window starts at the same instant
  // when the cost centre is not under review (both are written with one clock reading).
  const sameWindow = !changes.to && changes.from !== null && since?.getTime() === changes.from.getTime();
  const view: CycleView = {
    state,
    shown: shownState(state, window),
    frozen: isFrozen(state),
    actions,
    changesHref: `${reviewPath(calendar.name, cc)}/alteracoes`,
    changedSinceSubmission: !actions.includes("submit")
      ? 0
      : sameWindow
        ? changedCells.length
        : await countChangedCells(calendar.name, cc, since),
    preparers,
    timeline: events.map((e) => ({
      when: formatDateTime(e.at),
      who: e.name ? `${e.name} (${e.by})` : e.by,
      from: STATE_LABELS[e.from],
      to: STATE_LABELS[e.to],
      action: cycleTexts.actionVerbs[e.action],
      comment: e.comment,
    })),
  };
  return { view, changedCells };
}

/** A cycle action as a form or a URL names it. */
export const CYCLE_ACTION = z.enum(CYCLE_ACTIONS);

const actionSchema = z.object({
  intent: CYCLE_ACTION,
  comment: z.string().max(20_000).optional().default(""),
  confirm: z.literal("1").optional(),
});

/** A submission not yet confirmed: the question to ask (with the cells changed), and the comment to carry. */
export type CycleConfirm = { count: number; question: string; comment: string };

export type CycleOutcome =
  | { ok: true; message: string }
  | { ok: false; message: string; status: 400 | 403 | 409 }
  | { ok: false; confirm: CycleConfirm; status: 200 };

/**
 * Takes a cycle action sent by the page's form (intent, comment), as `user`, today. `read`: the submission the
 * reviewer decided on as the status board showed it; a decision is refused if the cost centre was sent again since.
 */
export async function takeCycleAction(
  form: URLSearchParams | FormData,
  review: Review,
  user: AuthenticatedUser,
  today: CalendarDate,
  now = new Date(),
  read?: Date,
): Promise<CycleOutcome> {
  const parsed = actionSchema.safeParse({
    intent: form.get("intent") ?? undefined,
    comment: typeof form.get("comment") === "string" ? form.get("comment") : undefined,
    confirm: form.get("confirm") ?? undefined,
  });
  if (!parsed.success) return { ok: false, message: cycleAnswerTexts.invalidAction, status: 400 };
  const action = parsed.data.intent;
  const comment = parsed.data.comment.trim();
  if (comment.length > COMMENT_MAX) return { ok: false, message: cycleTexts.commentTooLong(COMMENT_MAX), status: 400 };
  if (needsComment(action) && comment.length === 0)
    return { ok: false, message: cycleTexts.commentRequired, status: 400 };

  const { calendar, costCenter } = review;
  const cc = costCenter.cost_center_concat;
  const [record, preparerMap] = await Promise.all([cycleOf(calendar.name, cc), preparersOf([cc])]);
  const state = record?.state ?? INITIAL_STATE;
  const preparers = preparerMap.get(cc) ?? [];
  const actor = actorOf(user, preparers, await submissionOf(record, calendar.name, cc));
  const window = editWindowOf(calendar, today);
  const audit = (outcome: "ok" | "refused", details: Record<string, unknown>) =>
    recordAudit({
      actor: user,
      event: "decision",
      object: { kind: "costCentre", id: cc, label: `${cc} · ${calendar.name}` },
      dataset: "forecast",
      outcome,
      details: { rf: calendar.name, action, ...details },
    });
  const refusal = refusalOf(action, state, actor, window, monthLabel(calendar.editMonth));
  if (refusal) {
    await audit("refused", { state, reason: refusal });
    const status = TRANSITIONS[action].from.includes(state) ? 403 : 409;
    return { ok: false, message: refusal, status };
  }
  // A submission cannot be changed once sent: it is asked first, naming what changed since the last one.
  if (action === "submit" && parsed.data.confirm !== "1") {
    const count = await countChangedCells(calendar.name, cc, record?.submitted_at ?? null);
    return { ok: false, status: 200, confirm: { count, question: cycleTexts.submitQuestion(count), comment } };
  }
  const { from, to } = TRANSITIONS[action];
  // A submission records who sent it and the preparers then: the reviewers' rule is checked against both.
  const submission: SubmissionRecord | undefined =
    action === "submit"
      ? { submitted_by: user.email, submitted_at: now, preparers_at_submission: preparers }
      : undefined;
  const decision = action === "approve" || action === "return";
  if (decision && read && record?.submitted_at?.getTime() !== read.getTime()) {
    await audit("refused", { state, reason: "sentAgain" });
    return { ok: false, message: bulkTexts.sentAgain, status: 409 };
  }
  // A decision applies to the submission it was checked against, not to one sent since.
  const decided = decision ? (read ?? record?.submitted_at ?? null) : undefined;
  const result = await transition(calendar.name, cc, action, from, to, user, comment, now, submission, decided);
  if (!result.ok) {
    await audit("refused", { state: result.current, reason: "raced" });
    return {
      ok: false,
      message: cycleAnswerTexts.refused.wrongState(
        cycleAnswerTexts.actionInfinitive[action],
        STATE_LABELS[result.current],
      ),
      status: 409,
    };
  }
  // Kept before the answer that reports it (the audit trail's rule), then the notices.
  await audit("ok", { from: result.event.from, to, comment });
  // The approved figures kept as a version: a later reopen does not lose them.
  if (action === "approve") await keepApprovedFigures(calendar.name, cc, user, now);
  await notify(await noticesOf(action, review, user, comment, result.event.from), now);
  return { ok: true, message: cycleAnswerTexts.done[action] };
}

/** Submission → the reviewers (never the cost centre's preparers); return and approval → the preparers; reopening → both. */
async function noticesOf(
  action: CycleAction,
  review: Review,
  actor: AuthenticatedUser,
  comment: string,
  from: CycleState,
): Promise<NoticeInput[]> {
  const rf = review.calendar.name;
  const cc = review.costCenter.cost_center_concat;
  const link = reviewPath(rf, cc);
  const preparers = (await preparersOf([cc])).get(cc) ?? [];
  const reviewers = async () =>
    (await usersOfTypes(reviewerTypes())).map((u) => u.user).filter((u) => !preparers.includes(u));
  const who = actor.name || actor.email;
  const n = cycleNoticeTexts;
  const to = (emails: readonly string[], kind: string, title: string, body: string): NoticeInput[] =>
    [...new Set(emails)].filter((e) => e !== actor.email).map((e) => ({ to: e, kind, title, body, link }));
  switch (action) {
    case "submit":
      // After a return, the reviewers are told it is the corrected forecast.
      return from === "returned"
        ? to(
            await reviewers(),
            "forecast.submitted",
            n.resubmittedTitle(cc, rf),
            n.resubmittedBody(who, cc, rf, comment),
          )
        : to(await reviewers(), "forecast.submitted", n.submittedTitle(cc, rf), n.submittedBody(who, cc, rf, comment));
    case "withdraw":
      return to(
        await reviewers(),
        "forecast.withdrawn",
        n.withdrawnTitle(cc, rf),
        n.withdrawnBody(who, cc, rf, comment),
      );
    case "approve":
      return to(preparers, "forecast.approved", n.approvedTitle(cc, rf), n.approvedBody(who, cc, rf, comment));
    case "return":
      return to(preparers, "forecast.returned", n.returnedTitle(cc, rf), n.returnedBody(who, cc, rf, comment));
    case "reopen":
      return to(
        [...preparers, ...(await reviewers())],
        "forecast.reopened",
        n.reopenedTitle(cc, rf),
        n.reopenedBody(who, cc, rf, comment),
      );
  }
}
