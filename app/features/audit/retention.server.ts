import { getConfig } from "~/config.server";
import { auditDayOf, purgeAuditDaysBefore } from "~/models/audit.server";
import { recordAudit } from "~/platform/audit/record.server";

/**
 * The audit trail's retention (AUDIT_RETENTION_DAYS, 400 by default): whole UTC days older than the retention are
 * removed, each day's final hash kept so the chain after it still verifies. Run daily by the scheduled tasks
 * (app/scheduled-tasks.server.ts, "audit-retention") and by `portal audit:purge`.
 */

/** The first UTC day kept at `now`: every day before it is older than the retention. */
export function auditRetentionCutoff(now: Date, retentionDays = getConfig().audit.retentionDays): string {
  return auditDayOf(new Date(now.getTime() - retentionDays * 86_400_000));
}

/**
 * Removes the days older than the retention at `now`; answers them, oldest first. A run that removed any writes an
 * entry saying which days, how many entries and by which rule, so the log itself tells why its oldest days are gone.
 */
export async function purgeExpiredAuditDays(now: Date = new Date()): Promise<string[]> {
  const retentionDays = getConfig().audit.retentionDays;
  const cutoff = auditRetentionCutoff(now, retentionDays);
  const { days, entries } = await purgeAuditDaysBefore(cutoff, now);
  if (days.length > 0) {
    await recordAudit({
      actor: null,
      ip: null,
      event: "auditPurged",
      object: { kind: "audit", id: "retention" },
      outcome: "ok",
      // `days` is cut to its first 50 by the model; first and last always name the whole span.
      details: { cutoff, retentionDays, entries, dayCount: days.length, first: days[0], last: days.at(-1), days },
      at: now,
    });
  }
  return days;
}
