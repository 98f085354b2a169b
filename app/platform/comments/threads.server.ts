import { z } from "zod";
import { canAccessRoute, maySeeUserAddresses, type RouteId } from "~/access";
import { accessContext } from "~/config.server";
import { type CellKey, COMMENT_MAX, insertComment, readThread, setThreadResolved } from "~/models/cell-comments.server";
import { notify } from "~/models/notices.server";
import { usersOfTypes } from "~/models/user-permissions.server";
import { recordAudit } from "~/platform/audit/record.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { formatDateTime } from "~/shared/dates";
import { PERMISSION_TYPES, type PermissionType } from "~/shared/permissions";
import { readLimitedText } from "~/shared/request-body.server";
import { readToastFromResponse, redirectWithToast } from "~/shared/toast.server";
import { hasMentions, type Mentionable, mentionsOf, ownName, resolveMentions } from "./mentions";
import { commentTexts } from "./texts";

/**
 * A cell's comments, whichever grid it is on. The feature that owns the grid names the cell (`CellTarget`: its key from
 * the data, its words, its addresses and who may read it); this module keeps the thread, resolves the mentions against
 * the people who may read that cell, notifies them and writes the audit trail. Who may read or comment is the screen's
 * read rule and its rows' scope, checked by the route before it builds the target: a reviewer discusses a submitted
 * cost centre while its figures stay frozen.
 */

export type CellTarget = {
  key: CellKey;
  /** The cell in words, e.g. "4101001 - Salários · mar/2027". */
  label: string;
  /** The grid in words, e.g. "Forecast RF1 2026 · CC1001 - Marketing". */
  place: string;
  /** The grid opened on this cell. */
  gridHref: string;
  /** This thread's page. */
  threadHref: string;
  /** The people who may read this cell: the screen's read rule and, where its rows are scoped, the row's scope. */
  readers(): Promise<Mentionable[]>;
};

/** Readers of a route (its read rule, as the portal is configured), narrowed by a row scope when given. */
export async function readersOfRoute(
  routeId: RouteId,
  inScope?: (person: { stores: readonly string[] }) => boolean,
): Promise<Mentionable[]> {
  const context = accessContext();
  const types = PERMISSION_TYPES.filter((type) => canAccessRoute(type, routeId, context));
  const people = await usersOfTypes(types);
  return people.filter((p) => !inScope || inScope(p)).map((p) => ({ email: p.user, name: p.name, id: p.id }));
}

/** Mentionable people the page lists (the suggestions filter them as one types). */
const MENTIONABLE_SHOWN = 300;

export type ThreadComment = { id: string; who: string; when: string; text: string };

export type ThreadPage = {
  label: string;
  place: string;
  gridHref: string;
  threadHref: string;
  comments: ThreadComment[];
  /** The thread's count (more than `comments` when the oldest are not shown). */
  total: number;
  resolved: { by: string; when: string } | null;
  /**
   * Who may be mentioned: `mention` follows "@"; `name` is their own name or "Sem nome no cadastro"; `tag` the code that
   * tells them apart; `email` only for a viewer who may see addresses (maySeeUserAddresses), else null.
   */
  mentionable: { mention: string; name: string; tag: string | null; email: string | null }[];
  mentionableMore: number;
  max: number;
};

/**
 * The thread's page for `viewer`. People are shown by their own name (never one that is their e-mail or its part before
 * "@", as the user administration names a user it creates); e-mails only to a viewer who may already see addresses.
 */
export async function loadThreadPage(target: CellTarget, viewer: { type: PermissionType }): Promise<ThreadPage> {
  const [{ thread, comments }, readers] = await Promise.all([readThread(target.key), target.readers()]);
  const addresses = maySeeUserAddresses(viewer.type, accessContext());
  const shownName = (name: string, email: string) =>
    ownName({ name, email }) || (addresses ? email : commentTexts.unnamed);
  const mentions = mentionsOf(readers);
  const people = readers
    .map((r) => ({
      ...(mentions.get(r.id) ?? { mention: `#${r.id}`, tag: r.id }),
      name: ownName(r) || commentTexts.unnamed,
      email: addresses ? r.email : null,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, "pt-BR") || a.mention.localeCompare(b.mention));
  const names = new Map(readers.map((r) => [r.email.toLowerCase(), shownName(r.name, r.email)]));
  return {
    label: target.label,
    place: target.place,
    gridHref: target.gridHref,
    threadHref: target.threadHref,
    comments: comments.map((c) => ({
      id: c._id.toHexString(),
      who: shownName(c.author_name, c.author),
      when: formatDateTime(c.created_at),
      text: c.text,
    })),
    total: thread?.comments ?? comments.length,
    resolved:
      thread?.resolved_at && thread.resolved_by
        ? {
            by: names.get(thread.resolved_by) ?? shownName("", thread.resolved_by),
            when: formatDateTime(thread.resolved_at),
          }
        : null,
    mentionable: people.slice(0, MENTIONABLE_SHOWN),
    mentionableMore: Math.max(0, people.length - MENTIONABLE_SHOWN),
    max: COMMENT_MAX,
  };
}

/** A comment's form is small: the text and an intent. */
const FORM_MAX_BYTES = 32 * 1024;

const formSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("comment"), text: z.string().max(COMMENT_MAX * 4) }),
  z.object({ intent: z.enum(["resolve", "reopen"]) }),
]);

export type ThreadAnswer = { ok: false; message: string; text: string };

/** The text as stored: trimmed, each line break "\n" (counted once, as the page counts it). */
const normalized = (text: string) => text.replace(/\r\n?/g, "\n").trim();

/**
 * The thread page's POST: a comment (with its mentions resolved against the cell's readers; any name that is not one
 * of them refuses the whole comment, so a mention never tells someone about a cell they cannot see), or resolving or
 * opening the thread again. A success answers with a redirect to the thread (Back never posts it again).
 */
export async function threadAction(
  target: CellTarget,
  user: AuthenticatedUser,
  request: Request,
  now: Date = new Date(),
): Promise<Response | ThreadAnswer> {
  const body = await readLimitedText(request, FORM_MAX_BYTES).catch(() => null);
  const fields = body === null ? {} : Object.fromEntries(new URLSearchParams(body));
  const form = formSchema.safeParse(fields);
  const typed = typeof fields.text === "string" ? fields.text.slice(0, COMMENT_MAX * 2) : "";
  if (!form.success) return { ok: false, message: commentTexts.errors.empty, text: typed };
  const subject = { kind: "cell" as const, id: cellId(target.key), label: `${target.place} · ${target.label}` };
  if (form.data.intent !== "comment") {
    const resolved = form.data.intent === "resolve";
    if (!(await setThreadResolved(target.key, user.email, resolved, now)))
      return { ok: false, message: commentTexts.errors.noThread, text: "" };
    await recordAudit({ actor: user, event: "commentResolved", object: subject, outcome: "ok", details: { resolved } });
    return redirectWithToast(target.threadHref, {
      type: "success",
      description: resolved ? commentTexts.done.resolved : commentTexts.done.reopened,
    });
  }
  const text = normalized(form.data.text);
  if (text.length === 0) return { ok: false, message: commentTexts.errors.empty, text: typed };
  if (text.length > COMMENT_MAX) return { ok: false, message: commentTexts.errors.tooLong(COMMENT_MAX), text: typed };
  const mentions = hasMentions(text)
    ? resolveMentions(text, await target.readers())
    : { ok: true as const, emails: [] };
  if (!mentions.ok) {
    const message =
      mentions.reason === "tooMany"
        ? commentTexts.errors.tooMany
        : mentions.reason === "ambiguous"
          ? commentTexts.errors.ambiguous(mentions.token)
          : commentTexts.errors.unknown(mentions.token);
    return { ok: false, message, text: typed };
  }
  await insertComment(target.key, { author: user.email, authorName: user.name, text, mentions: mentions.emails }, now);
  const told = mentions.emails.filter((email) => email !== user.email.toLowerCase());
  await notify(
    told.map((to) => ({
      to,
      kind: "comment.mention",
      title: commentTexts.notice.title(user.name || user.email),
      body: commentTexts.notice.body(target.place, target.label, clip(text, 300)),
      link: target.gridHref,
      links: [{ label: commentTexts.notice.thread, path: target.threadHref }],
    })),
    now,
  );
  await recordAudit({
    actor: user,
    event: "commentAdded",
    object: subject,
    outcome: "ok",
    details: { mentions: mentions.emails, characters: text.length },
  });
  return redirectWithToast(target.threadHref, {
    type: "success",
    description: told.length > 0 ? commentTexts.done.addedNotified(told.length) : commentTexts.done.added,
  });
}

/** A thread's POST answered in place (a side panel beside the grid): its success, or the page's refusal. */
export type ThreadPanelAnswer = { ok: true; message: string } | ThreadAnswer;

/**
 * threadAction's answer for a caller that stays where it is (the grid's side panel, a fetcher, which would follow a
 * redirect away): a success is its message, with the toast's cookie the redirect carried; a refusal as it was.
 */
export async function inPlace(answer: Response | ThreadAnswer): Promise<{ body: ThreadPanelAnswer; headers: Headers }> {
  if (!(answer instanceof Response)) return { body: answer, headers: new Headers() };
  const headers = new Headers();
  for (const cookie of answer.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  const toast = await readToastFromResponse(answer);
  return { body: { ok: true, message: toast?.description ?? "" }, headers };
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The audit trail's name of a cell: its screen, scope and key. */
const cellId = (key: CellKey) => `${key.screen}:${key.scope}:${key.cell}`;

/** A cell's key from the data's keys (JSON of strings: no separator a key could hold). */
export const cellKeyOf = (parts: readonly string[]) => JSON.stringify(parts);

/** The data's keys of a cell's key, or null when it is not `count` strings. */
export function cellPartsOf(cell: string, count: number): string[] | null {
  try {
    const parts: unknown = JSON.parse(cell);
    return Array.isArray(parts) && parts.length === count && parts.every((p) => typeof p === "string") ? parts : null;
  } catch {
    return null;
  }
}

/** A thread as a spreadsheet's cell note: "Name (29 nov 26 02:04:09): text", a paragraph each, dated as on its page. */
export function threadNote(
  comments: readonly { author_name: string; author: string; created_at: Date; text: string }[],
): string {
  return comments.map((c) => `${c.author_name || c.author} (${formatDateTime(c.created_at)}): ${c.text}`).join("\n\n");
}
