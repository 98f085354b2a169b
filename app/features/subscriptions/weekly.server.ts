import { insertSends, subscriptionsOfKind } from "~/models/subscriptions.server";

/**
 * The weekly dashboard e-mails: one send per dashboard subscription per ISO week, keyed by the week, so a
 * run repeated within the same week (another instance, a retry, a restart) queues nothing new. The figures are
 * computed when the send is made, for the subscriber as they stand then (dispatch.server.ts).
 */

/** The ISO-8601 week of a date (UTC), e.g. "2026-W48". */
export function isoWeekOf(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  // The Thursday of this week decides its year.
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/** Queues this week's dashboard sends; returns how many are new. */
export async function queueWeeklyDashboardSends(now: Date = new Date()): Promise<number> {
  const week = isoWeekOf(now);
  let queued = 0;
  for await (const page of subscriptionsOfKind("dashboard")) {
    queued += await insertSends(
      page.map((s) => ({
        user: s.user,
        kind: s.kind,
        object: s.object,
        key: `dashboard:${s.object}:${week}|${s.user}`,
        event: { type: "weekly" as const, week },
      })),
      now,
    );
  }
  return queued;
}
