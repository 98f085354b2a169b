import { getConfig } from "~/config.server";
import { auditDayOf, purgeAuditDaysBefore } from "~/models/audit.server";

/**
 * The audit trail's retention (AUDIT_RETENTION_DAYS, 400 by default): whole UTC days older than the retention are
 * removed, each day's final hash kept so the chain after it still verifies. Run daily by the scheduled tasks
 * (app/scheduled-tasks.server.ts, "audit-retention") and by `portal audit:purge`.
 */

/** The first UTC day kept at `now`: every day before it is older than the retention. */
export function auditRetentionCutoff(now: Date, retentionDays = getConfig().audit.retentionDays): string {
  return auditDayOf(new Date(now.getTime() - retentionDays * 86_400_000));
}

/** Removes the days older than the retention at `now`; answers them, oldest first. */
export function purgeExpiredAuditDays(now: Date = new Date()): Promise<string[]> {
  return purgeAuditDaysBefore(auditRetentionCutoff(now), now);
}
