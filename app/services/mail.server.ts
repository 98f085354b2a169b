import { getConfig } from "~/config.server";
import { findLatestOutboxMessage, insertOutboxMessage, type OutboxMessage } from "~/models/auth-records.server";
import { componentLogger, errorFields } from "~/shared/logger.server";

/**
 * Outgoing e-mail. MAIL=outbox (default): each message is stored in MongoDB (`mail_outbox`) and one JSON
 * line is logged (without the body, which may hold a code or a temporary password). MAIL=smtp: nodemailer
 * to SMTP_URL, any relay, with bounded waits (SMTP_CONNECTION_TIMEOUT_MS for the connection and greeting,
 * SMTP_SEND_TIMEOUT_MS for each answer and for the whole message), so a dead relay fails fast instead of
 * holding the request.
 */

/** A file sent with a message (e.g. a subscribed dashboard's figures as XLSX). */
export type MailAttachment = { filename: string; contentType: string; content: Buffer };

export type MailMessage = { to: string; subject: string; text: string; html?: string; attachments?: MailAttachment[] };

const log = componentLogger("mail");

type Transport = {
  sendMail(options: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html?: string;
    attachments?: MailAttachment[];
  }): Promise<unknown>;
};
let smtpTransport: { key: string; transport: Promise<Transport> } | undefined;

async function getSmtpTransport(
  smtpUrl: string,
  timeouts: { connectionMs: number; sendMs: number },
): Promise<Transport> {
  const key = JSON.stringify([smtpUrl, timeouts]);
  if (smtpTransport?.key !== key) {
    smtpTransport = {
      key,
      transport: import("nodemailer").then(
        (m) =>
          m.default.createTransport({
            url: smtpUrl,
            connectionTimeout: timeouts.connectionMs,
            greetingTimeout: timeouts.connectionMs,
            dnsTimeout: timeouts.connectionMs,
            socketTimeout: timeouts.sendMs,
          } as Parameters<typeof m.default.createTransport>[0]) as Transport,
      ),
    };
  }
  return smtpTransport.transport;
}

/** Where a relay URL points, without its credentials (for the log). */
function relayOf(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return "(invalid SMTP_URL)";
  }
}

export class MailTimeoutError extends Error {
  constructor(ms: number) {
    super(`the SMTP relay did not accept the message within ${ms} ms`);
    this.name = "MailTimeoutError";
  }
}

export async function sendMail(message: MailMessage): Promise<void> {
  const config = getConfig();
  const to = message.to.trim();
  if (!to.includes("@")) throw new Error(`sendMail: invalid recipient "${to}"`);
  if (config.mail.kind === "smtp") {
    if (!config.mail.smtpUrl) throw new Error("MAIL=smtp needs SMTP_URL");
    const { connectionMs, sendMs } = config.smtpTimeouts;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const transport = await getSmtpTransport(config.mail.smtpUrl, config.smtpTimeouts);
      // The socket timeout is per answer; this bounds the whole conversation too.
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new MailTimeoutError(connectionMs + sendMs)), connectionMs + sendMs);
      });
      await Promise.race([transport.sendMail({ from: config.mail.from, ...message, to }), deadline]);
      log.info("mail sent", {
        relay: relayOf(config.mail.smtpUrl),
        to,
        subject: message.subject,
        durationMs: Date.now() - started,
      });
    } catch (error) {
      log.error("mail not sent", {
        relay: relayOf(config.mail.smtpUrl),
        to,
        subject: message.subject,
        durationMs: Date.now() - started,
        ...errorFields(error),
      });
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return;
  }
  const createdAt = new Date();
  const id = await insertOutboxMessage({ from: config.mail.from, ...message, to, createdAt });
  if (config.logLevel !== "silent" && config.logLevel !== "warn" && config.logLevel !== "error") {
    console.info(
      JSON.stringify({
        level: "info",
        time: createdAt.toISOString(),
        msg: "mail.outbox",
        id,
        to,
        subject: message.subject,
      }),
    );
  }
}

/** Messages handed to `sendMailInBackground` and not yet settled (tests wait for them). */
const inFlight = new Set<Promise<void>>();

/**
 * Sends without making the caller wait for, or fail on, the relay: for answers that must look the same whether or
 * not a mail goes out (forgot password: known and unknown e-mails, a working or a dead relay). With SMTP the message
 * goes out in the background and a failure is logged by sendMail; the outbox is the database itself, so it is
 * written before this resolves, as any other write of the request.
 */
export async function sendMailInBackground(message: MailMessage): Promise<void> {
  if (getConfig().mail.kind !== "smtp") return sendMail(message);
  const sending = sendMail(message)
    .catch(() => undefined)
    .finally(() => inFlight.delete(sending));
  inFlight.add(sending);
}

/** Resolves once every background message has been sent or has failed. */
export async function settleBackgroundMail(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

/** The newest outbox message sent to an address (tests, demos and the e2e suite read codes with it). */
export async function readLatestMail(to: string): Promise<OutboxMessage | null> {
  return findLatestOutboxMessage(to);
}
