import { getConfig } from "~/config.server";
import { PANEL_TYPES } from "~/models/dashboards.server";
import {
  type ClaimedSend,
  claimNextSend,
  isSubscribed,
  markSendAttemptFailed,
  markSendSent,
  markSendSkipped,
} from "~/models/subscriptions.server";
import { loadDashboardScreen } from "~/platform/dashboards/dashboards.server";
import { dashboardProviderTexts } from "~/platform/dashboards/texts";
import { type MailMessage, sendMail } from "~/services/mail.server";
import { componentLogger, errorFields } from "~/shared/logger.server";
import { monthKeyOfDate, monthLabelOfDate } from "~/shared/months";
import { dashboardWorkbook } from "./dashboard-workbook.server";
import { SUBSCRIPTIONS_PATH } from "./paths";
import { type AccessCheck, checkAccess } from "./rights.server";
import { subscriptionTexts as t } from "./texts";

/**
 * The subscription dispatcher, a scheduled task of the job worker: claims each due send with a lease,
 * checks the subscriber's rights AS THEY STAND NOW (a subscriber who lost access gets nothing: the send is logged
 * "skipped" with the reason), builds the e-mail — for a dashboard, its figures computed for THAT subscriber, HR rows
 * limited to their branches as on the screen, as an XLSX attachment — sends it and marks it sent; a failed attempt is
 * retried with exponential backoff (SEND_MAX_ATTEMPTS, then "failed").
 */

const log = componentLogger("subscription-mail");
const MAX_PER_RUN = 50;
const RUN_BUDGET_MS = 60_000;

/** A send that cannot be made now but may be later (e.g. a dashboard's figures still being computed). */
class TemporaryError extends Error {}

/** The send will not be made: logged as skipped with this reason. */
class SkipSend extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

function leaseMs(): number {
  const { connectionMs, sendMs } = getConfig().smtpTimeouts;
  // A dashboard's figures may take a compute budget before the mail itself.
  return Math.max(3 * 60_000, connectionMs + sendMs + 150_000);
}

const originLabel = (origin: string) =>
  origin === "automatico" ? t.originAutomatico : origin === "manual" ? t.originManual : origin;

function withLinks(body: string, link: string): string {
  const origin = getConfig().origin;
  return [body, t.mailOpenLink(`${origin}${link}`), "--", t.mailFooter(`${origin}${SUBSCRIPTIONS_PATH}`)].join("\n\n");
}

/** The e-mail of one send, for a subscriber whose access was just checked. */
export async function buildSendMail(
  send: ClaimedSend,
  user: Extract<AccessCheck, { ok: true }>["user"],
): Promise<MailMessage> {
  const { event } = send;
  if (send.kind === "report_origin" && event.type === "reports") {
    const link = `/ij/report?${new URLSearchParams({ origin: send.object })}`;
    return {
      to: user.email,
      subject: t.mailReportsSubject(originLabel(send.object)),
      text: withLinks(t.mailReportsBody(event.count, event.names), link),
    };
  }
  if (send.kind === "financial_statements" && event.type === "statement") {
    const dateRef = new Date(event.dateRef);
    const annual = event.statementType === "ANNUAL";
    const period = annual ? String(dateRef.getUTCFullYear()) : monthLabelOfDate(dateRef);
    const link = `/ij/demo_financial?${new URLSearchParams({
      company: send.object,
      type: event.statementType,
      period: monthKeyOfDate(dateRef),
    })}`;
    return {
      to: user.email,
      subject: t.mailStatementSubject(send.object, period),
      text: withLinks(t.mailStatementBody(send.object, annual ? t.annual : t.monthly, period), link),
    };
  }
  if (send.kind === "dashboard" && event.type === "weekly") {
    let screen: Awaited<ReturnType<typeof loadDashboardScreen>>;
    try {
      screen = await loadDashboardScreen({ ...user, sessionId: "" }, send.object, PANEL_TYPES.intelligentJourney);
    } catch (error) {
      if (error instanceof Response) throw new SkipSend("notFound");
      throw error;
    }
    if (screen.view.provider !== "native") throw new SkipSend("provider");
    const charts = screen.view.charts;
    if (charts.some((c) => c.error === dashboardProviderTexts.chartComputing))
      throw new TemporaryError("dashboard figures still being computed");
    const label = screen.dashboard.panelLabel;
    return {
      to: user.email,
      subject: t.mailDashboardSubject(label, event.week),
      text: withLinks(t.mailDashboardBody(label), `/ij/painel/${encodeURIComponent(send.object)}`),
      attachments: [
        {
          filename: `painel-${send.object}-${event.week}.xlsx`,
          contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          content: await dashboardWorkbook(label, charts),
        },
      ],
    };
  }
  throw new SkipSend("notFound");
}

/**
 * Delivers the due sends now (the worker through the scheduled tasks; tests with a pinned clock). Never throws for
 * one send: a failure is logged and retried later.
 */
export async function deliverSubscriptionSends(
  now: Date = new Date(),
  options: { maxSends?: number; budgetMs?: number } = {},
): Promise<{ sent: number; skipped: number; failed: number }> {
  const max = options.maxSends ?? MAX_PER_RUN;
  const budget = options.budgetMs ?? RUN_BUDGET_MS;
  const started = Date.now();
  const lease = leaseMs();
  const counts = { sent: 0, skipped: 0, failed: 0 };
  while (counts.sent + counts.skipped + counts.failed < max && Date.now() - started < budget) {
    const send = await claimNextSend(now, lease);
    if (!send) break;
    const fields = { sendId: String(send._id), kind: send.kind, object: send.object, to: send.user };
    try {
      if (!(await isSubscribed(send.user, send.kind, send.object))) throw new SkipSend("unsubscribed");
      const access = await checkAccess(send.user, send.kind, send.object);
      if (!access.ok) throw new SkipSend(access.reason);
      await sendMail(await buildSendMail(send, access.user));
      await markSendSent(send, now);
      counts.sent++;
      log.info("subscription mail sent", { ...fields, attempt: send.attempts });
    } catch (error) {
      if (error instanceof SkipSend) {
        await markSendSkipped(send, error.reason, now);
        counts.skipped++;
        log.info("subscription mail skipped", { ...fields, reason: error.reason });
        continue;
      }
      counts.failed++;
      const message = error instanceof Error ? error.message : String(error);
      const outcome = await markSendAttemptFailed(send, message, now).catch(() => null);
      log.warn(outcome?.status === "failed" ? "subscription mail given up" : "subscription mail attempt failed", {
        ...fields,
        attempt: send.attempts,
        ...(outcome?.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt.toISOString() } : {}),
        ...errorFields(error),
      });
    }
  }
  return counts;
}
