import { getConfig } from "~/config.server";
import { type ClaimedMail, claimNextMail, markMailAttemptFailed, markMailSent } from "~/models/notices.server";
import { sendMail } from "~/services/mail.server";
import { componentLogger, errorFields } from "~/shared/logger.server";
import { noticeDeliveryTexts } from "./texts";

/**
 * The notice mail dispatcher: claims each due queued mail (a lease, so several web and worker processes may run it),
 * sends it with sendMail (the outbox, or SMTP with its bounded timeouts), marks it sent, and on failure schedules the
 * next attempt with exponential backoff (MAIL_MAX_ATTEMPTS, then "failed"). It runs in the job worker on its own
 * timer (app/scheduled-tasks.server.ts), never inside a request or a job, so a slow relay delays only the mail.
 */

const log = componentLogger("notice-mail");

/** Mails one run sends at most, and how long it keeps claiming new ones (a stalled relay ends a run early). */
const MAX_PER_RUN = 100;
const RUN_BUDGET_MS = 30_000;

/** A claim outlives the longest send sendMail allows (connection + whole message), with a margin. */
function leaseMs(): number {
  const { connectionMs, sendMs } = getConfig().smtpTimeouts;
  return Math.max(60_000, connectionMs + sendMs + 30_000);
}

/** The e-mail of a notice: its title as subject, its body, its further links, the link to open it and where to switch mail off. */
export function noticeMailText(mail: Pick<ClaimedMail, "body" | "link" | "links">): string {
  const origin = getConfig().origin;
  const parts = [mail.body];
  for (const link of mail.links ?? []) parts.push(noticeDeliveryTexts.mailLink(link.label, `${origin}${link.path}`));
  if (mail.link) parts.push(noticeDeliveryTexts.mailOpenLink(`${origin}${mail.link}`));
  parts.push("--", noticeDeliveryTexts.mailFooter(`${origin}/user/settings`));
  return parts.join("\n\n");
}

/**
 * Delivers the due queued mails now (tests call it with a pinned clock; the worker through the scheduled tasks).
 * Never throws for a failed send: that is counted, logged and retried later.
 */
export async function deliverPendingMail(
  now: Date = new Date(),
  options: { maxMails?: number; budgetMs?: number } = {},
): Promise<{ sent: number; failed: number }> {
  const max = options.maxMails ?? MAX_PER_RUN;
  const budget = options.budgetMs ?? RUN_BUDGET_MS;
  const started = Date.now();
  const lease = leaseMs();
  let sent = 0;
  let failed = 0;
  while (sent + failed < max && Date.now() - started < budget) {
    const mail = await claimNextMail(now, lease);
    if (!mail) break;
    const attemptStarted = Date.now();
    const fields = { mailId: String(mail._id), kind: mail.kind, to: mail.to, attempt: mail.attempts };
    try {
      await sendMail({ to: mail.to, subject: mail.title, text: noticeMailText(mail) });
      const kept = await markMailSent(mail, now);
      sent++;
      log.info("notice mail sent", {
        ...fields,
        durationMs: Date.now() - attemptStarted,
        ...(kept ? {} : { leaseLost: true }),
      });
    } catch (error) {
      failed++;
      const message = error instanceof Error ? error.message : String(error);
      const outcome = await markMailAttemptFailed(mail, message, now).catch(() => null);
      log.warn(outcome?.status === "failed" ? "notice mail given up" : "notice mail attempt failed", {
        ...fields,
        durationMs: Date.now() - attemptStarted,
        ...(outcome?.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt.toISOString() } : {}),
        ...errorFields(error),
      });
    }
  }
  return { sent, failed };
}
