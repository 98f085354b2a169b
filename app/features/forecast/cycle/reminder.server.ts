import { costCentersOfScenario } from "~/models/forecast.server";
import { INITIAL_STATE, isFrozen } from "~/models/forecast-cycle.fields";
import { cyclesOf, preparersOf, recordReminder } from "~/models/forecast-cycle.server";
import { type NoticeInput, notify } from "~/models/notices.server";
import { portalToday } from "~/shared/clock.server";
import { type CalendarDate, dayLabel, isoDate, monthStartDate } from "~/shared/months";
import { filterPath, reviewPath } from "../forecast-filter";
import { parseScenario, scenarioCalendar, scenarioOpenOn } from "../release-points";
import { daysToEditEnd } from "./board.server";
import { cycleNoticeTexts } from "./server-texts";

/**
 * The daily reminder of the forecast cycle: in the last REMINDER_DAYS days of an RF's edit month, each preparer of a
 * cost centre not yet submitted (Em preparação or Devolvido) gets one notice a day listing them. A sent reminder is
 * recorded per (RF, day, preparer), so a task run twice in a day (another instance, a retry) sends nothing twice.
 */

export const REMINDER_DAYS = 3;

export async function sendForecastReminders(now: Date, today: CalendarDate = portalToday(now)): Promise<number> {
  const scenario = scenarioOpenOn(today);
  if (!scenario) return 0;
  const calendar = scenarioCalendar(parseScenario(scenario.name)!);
  const days = daysToEditEnd(calendar, today);
  if (days === null || days >= REMINDER_DAYS) return 0;
  const rf = calendar.name;
  const [centres, cycles, preparers] = await Promise.all([costCentersOfScenario(rf), cyclesOf(rf), preparersOf()]);
  const pending = new Map<string, string[]>();
  for (const { cost_center_concat } of centres) {
    if (isFrozen(cycles.get(cost_center_concat)?.state ?? INITIAL_STATE)) continue;
    for (const user of preparers.get(cost_center_concat) ?? []) {
      const list = pending.get(user) ?? [];
      list.push(cost_center_concat);
      pending.set(user, list);
    }
  }
  if (pending.size === 0) return 0;
  const lastDay = new Date(monthStartDate(calendar.editMonth + 1).getTime() - 86_400_000);
  const lastLabel = dayLabel({
    year: lastDay.getUTCFullYear(),
    month: lastDay.getUTCMonth() + 1,
    day: lastDay.getUTCDate(),
  });
  const day = isoDate(today);
  const notices: NoticeInput[] = [];
  for (const [user, list] of pending) {
    if (!(await recordReminder(rf, day, user, now))) continue;
    notices.push({
      to: user,
      kind: "forecast.reminder",
      title: cycleNoticeTexts.reminderTitle(rf, lastLabel),
      body: cycleNoticeTexts.reminderBody(rf, lastLabel, list),
      link: list.length === 1 ? reviewPath(rf, list[0]) : filterPath({ rf }),
    });
  }
  await notify(notices, now);
  return notices.length;
}
