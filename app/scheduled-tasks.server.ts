import { randomUUID } from "node:crypto";
import os from "node:os";
import { sendTokenExpiryWarnings } from "~/features/api-tokens/expiry-warnings.server";
import { purgeExpiredAuditDays } from "~/features/audit/retention.server";
import { sendForecastReminders } from "~/features/forecast/cycle/reminder.server";
import { saveClosingVersions } from "~/features/forecast/versions/versions.server";
import { deliverSubscriptionSends } from "~/features/subscriptions/dispatch.server";
import { queueWeeklyDashboardSends } from "~/features/subscriptions/weekly.server";
import { claimTaskRun, finishTaskRun } from "~/models/scheduled-tasks.server";
import { summarizeRepeatedRefusals } from "~/platform/audit/record.server";
import { deliverPendingMail } from "~/platform/notices/mail-dispatch.server";
import { componentLogger, errorFields } from "~/shared/logger.server";

/**
 * The portal's scheduled tasks, listed once. The job worker (server/worker.ts: `npm run worker` and the worker the
 * host runs in process) calls runDueTasks on its own timer every TASKS_TICK_MS, apart from the job loop; each due
 * task runs at most once per period across every process (a `scheduled_tasks` document per task, claimed with
 * findOneAndUpdate). A task's run should be idempotent and bounded: a run that fails is tried again after
 * min(everyMs, TASK_RETRY_MS); one whose process died is taken again when its lease (leaseMs) runs out.
 *
 * To add a task: append it here (a feature's function, given the run's clock).
 */
export type ScheduledTask = {
  /** Unique and stable: the key of its `scheduled_tasks` document. */
  name: string;
  /** The period: the task runs at most once per this many milliseconds, across all instances. */
  everyMs: number;
  /** How long one run may hold the task before another runner may take it (default: 10 min). */
  leaseMs?: number;
  run(now: Date): Promise<void>;
};

/** How often the worker looks for due tasks (so a 10 s task is late by at most this). */
export const TASKS_TICK_MS = 5_000;
export const TASK_RETRY_MS = 5 * 60_000;
const DEFAULT_LEASE_MS = 10 * 60_000;

export const SCHEDULED_TASKS: ScheduledTask[] = [
  {
    // The forecast cycle's daily reminder (last 3 days of an edit month); hourly, each preparer once a day.
    name: "forecast-reminder",
    everyMs: 60 * 60_000,
    async run(now) {
      await sendForecastReminders(now);
    },
  },
  {
    // The forecast's closing version ("<RF> — fechamento"), once, in the month after an RF's edit month; hourly.
    name: "forecast-closing-version",
    everyMs: 60 * 60_000,
    async run(now) {
      await saveClosingVersions(now);
    },
  },
  {
    // Notice e-mails (sent within a minute): the queue, retries with backoff included.
    name: "notice-mail",
    everyMs: 10_000,
    leaseMs: 2 * 60_000,
    async run(now) {
      await deliverPendingMail(now);
    },
  },
  {
    // The audit trail's retention: whole days older than AUDIT_RETENTION_DAYS, their final hash kept.
    name: "audit-retention",
    everyMs: 24 * 60 * 60_000,
    async run(now) {
      await purgeExpiredAuditDays(now);
    },
  },
  {
    // Repeated 403s of one user, route and minute: one summary entry per minute that has ended ("n more").
    name: "audit-refusal-summaries",
    everyMs: 60_000,
    leaseMs: 2 * 60_000,
    async run(now) {
      await summarizeRepeatedRefusals(now);
    },
  },
  {
    // Subscriptions: the queued sends, rights checked again at send time, retries with backoff included.
    name: "subscription-mail",
    everyMs: 30_000,
    leaseMs: 5 * 60_000,
    async run(now) {
      await deliverSubscriptionSends(now);
    },
  },
  {
    // API and SCIM tokens about to expire: a notice and e-mail 14 and 3 days before, each once per token.
    name: "token-expiry-warnings",
    everyMs: 24 * 60 * 60_000,
    async run(now) {
      await sendTokenExpiryWarnings(now);
    },
  },
  {
    // The weekly dashboard e-mails: one send per subscriber per ISO week (looked at every 6 h, queued once a week).
    name: "subscription-weekly-dashboards",
    everyMs: 6 * 60 * 60_000,
    async run(now) {
      await queueWeeklyDashboardSends(now);
    },
  },
];

const log = componentLogger("scheduled-tasks");
const instance = `${os.hostname()}:${process.pid}`;

/**
 * Runs every task of `tasks` that is due at `now` and that no other runner holds, one after another; returns the
 * names it ran. A failing task is logged and does not stop the others. Once `stop` is aborted (the worker is shutting
 * down) no further task starts: the ones left are still due for the next runner.
 */
export async function runDueTasks(
  now: Date = new Date(),
  tasks: readonly ScheduledTask[] = SCHEDULED_TASKS,
  stop?: AbortSignal,
): Promise<string[]> {
  const ran: string[] = [];
  for (const task of tasks) {
    if (stop?.aborted) break;
    const owner = `${instance}:${randomUUID()}`;
    let claimed: boolean;
    try {
      claimed = await claimTaskRun(task.name, {
        now,
        everyMs: task.everyMs,
        leaseMs: task.leaseMs ?? DEFAULT_LEASE_MS,
        owner,
      });
    } catch (error) {
      log.error("scheduled task not claimed", { task: task.name, ...errorFields(error) });
      continue;
    }
    if (!claimed) continue;
    ran.push(task.name);
    const started = Date.now();
    try {
      await task.run(now);
      await finishTaskRun(task.name, owner, { finishedAt: new Date(now.getTime() + (Date.now() - started)) });
      log.debug("scheduled task ran", { task: task.name, durationMs: Date.now() - started });
    } catch (error) {
      log.error("scheduled task failed", { task: task.name, durationMs: Date.now() - started, ...errorFields(error) });
      await finishTaskRun(task.name, owner, {
        finishedAt: new Date(now.getTime() + (Date.now() - started)),
        error: error instanceof Error ? error.message : String(error),
        retryAt: new Date(now.getTime() + Math.min(task.everyMs, TASK_RETRY_MS)),
      }).catch(() => undefined);
    }
  }
  return ran;
}
