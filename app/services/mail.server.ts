import { getConfig } from "~/config.server";
import { findLatestOutboxMessage, insertOutboxMessage, type OutboxMessage } from "~/models/auth-records.server";

/**
 * Outgoing e-mail. MAIL=outbox (default): each message is stored in MongoDB (`mail_outbox`) and one JSON
 * line is logged (without the body, which may hold a code or a temporary password). MAIL=smtp: nodemailer
 * with SMTP_URL.
 */

export type MailMessage = { to: string; subject: string; text: string; html?: string };

type Transport = { sendMail(options: { from: string; to: string; subject: string; text: string; html?: string }): Promise<unknown> };
let smtpTransport: { url: string; transport: Promise<Transport> } | undefined;

async function getSmtpTransport(smtpUrl: string): Promise<Transport> {
  if (smtpTransport?.url !== smtpUrl) {
    smtpTransport = { url: smtpUrl, transport: import("nodemailer").then((m) => m.default.createTransport(smtpUrl) as Transport) };
  }
  return smtpTransport.transport;
}

export async function sendMail(message: MailMessage): Promise<void> {
  const config = getConfig();
  const to = message.to.trim();
  if (!to.includes("@")) throw new Error(`sendMail: invalid recipient "${to}"`);
  if (config.mail.kind === "smtp") {
    if (!config.mail.smtpUrl) throw new Error("MAIL=smtp needs SMTP_URL");
    const transport = await getSmtpTransport(config.mail.smtpUrl);
    await transport.sendMail({ from: config.mail.from, ...message, to });
    return;
  }
  const createdAt = new Date();
  const id = await insertOutboxMessage({ from: config.mail.from, ...message, to, createdAt });
  if (config.logLevel !== "silent" && config.logLevel !== "warn" && config.logLevel !== "error") {
    console.info(JSON.stringify({ level: "info", time: createdAt.toISOString(), msg: "mail.outbox", id, to, subject: message.subject }));
  }
}

/** The newest outbox message sent to an address (tests, demos and the e2e suite read codes with it). */
export async function readLatestMail(to: string): Promise<OutboxMessage | null> {
  return findLatestOutboxMessage(to);
}
