import { z } from "zod";
import { findOutboxMessage, listOutboxPage } from "~/models/auth-records.server";
import { type AuditActorInput, recordAudit } from "~/platform/audit/record.server";
import { formatDateTime } from "~/shared/dates";
import { parsePaging } from "~/shared/pagination";
import { OUTBOX_PARAMS } from "./params";
import { outboxTexts } from "./texts";

/**
 * /user/emails: the mail outbox as a page (MAIL=outbox). The list pages on the server, newest first, narrowed to a
 * recipient by `?para=`; `?mensagem=<id>` opens one message, its text and the links it carries, and the opening is an
 * audit entry (a message may hold a reset code).
 */

export const OUTBOX_PAGE_SIZES = [20, 40] as const;

const recipient = z.string().trim().toLowerCase().email().max(200);

/** A link a message carries: a portal path when it points at this portal, else the address as written. */
export type OutboxLink = { href: string; text: string };

export type OutboxMessageView = {
  id: string;
  to: string;
  from: string;
  subject: string;
  when: string;
  text: string;
  links: OutboxLink[];
  attachments: string[];
};

const URLS = /https?:\/\/[^\s<>"']+/g;

/** The addresses a message's text carries, each once, in order; those of this portal as its own paths. */
export function linksOf(text: string, origin: string): OutboxLink[] {
  const seen = new Set<string>();
  const links: OutboxLink[] = [];
  for (const match of text.matchAll(URLS)) {
    const address = match[0].replace(/[.,;:)]+$/, "");
    if (seen.has(address)) continue;
    seen.add(address);
    let href = address;
    try {
      const url = new URL(address);
      if (url.origin === origin) href = `${url.pathname}${url.search}${url.hash}`;
    } catch {
      continue;
    }
    links.push({ href, text: address });
  }
  return links;
}

export async function loadOutbox(url: URL, reader: AuditActorInput, origin: string) {
  const { page, pageSize } = parsePaging(url, OUTBOX_PAGE_SIZES);
  const typed = url.searchParams.get(OUTBOX_PARAMS.to) ?? "";
  const to = typed.trim() === "" ? null : recipient.safeParse(typed);
  const error = to && !to.success ? outboxTexts.invalidFilter : null;
  const list = await listOutboxPage({ page, pageSize, to: to?.success ? to.data : undefined });
  const messageId = url.searchParams.get(OUTBOX_PARAMS.message);
  const message = messageId ? await findOutboxMessage(messageId) : null;
  if (message)
    await recordAudit({
      actor: reader,
      event: "mailRead",
      object: { kind: "user", id: message.to, label: message.subject },
      outcome: "ok",
      details: { message: String(message._id) },
    });
  return {
    error,
    to: to?.success ? to.data : "",
    rows: list.items.map((item) => ({
      id: item.id,
      when: formatDateTime(item.createdAt),
      to: item.to,
      subject: item.subject,
      attachments: item.attachments,
    })),
    total: list.total,
    page: list.page,
    pageSize,
    pageSizes: [...OUTBOX_PAGE_SIZES],
    message: message
      ? ({
          id: String(message._id),
          to: message.to,
          from: message.from,
          subject: message.subject,
          when: formatDateTime(message.createdAt),
          text: message.text,
          links: linksOf(message.text, origin),
          attachments: (message.attachments ?? []).map((a) => a.filename),
        } satisfies OutboxMessageView)
      : null,
    messageMissing: messageId !== null && message === null,
  };
}

export type OutboxData = Awaited<ReturnType<typeof loadOutbox>>;
