import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { listNotices, markAllNoticesRead, markNoticeRead, safePortalLink, unreadCount } from "~/models/notices.server";
import { getPreferences, ON_CALL_TYPE, savePreferences } from "~/models/user-preferences.server";
import { pageNumber } from "~/shared/pagination";
import { redirectWithToast } from "~/shared/toast.server";
import { noticeTexts } from "./texts";

/**
 * The server side of /user/notices and /user/settings: every read and write is of the signed-in user's own notices
 * and preferences (the e-mail comes from the session, never from the form).
 */

import { NOTICES_PATH, SETTINGS_PATH } from "./paths";

export { NOTICES_PATH, SETTINGS_PATH };

export type NoticeListItem = {
  id: string;
  title: string;
  body: string;
  /** The portal path it opens, when it has a safe one. */
  link: string | null;
  /** Further links shown under its text (e.g. the refused rows' CSV). */
  links: { label: string; path: string }[];
  createdAt: string;
  unread: boolean;
};

export type NoticesPageData = {
  rows: NoticeListItem[];
  total: number;
  unread: number;
  page: number;
  pageCount: number;
};

const pageOf = (url: URL) => pageNumber.parse(url.searchParams.get("page") ?? undefined);
const listUrl = (page: number) => (page > 1 ? `${NOTICES_PATH}?page=${page}` : NOTICES_PATH);

export async function loadNoticesPage(email: string, url: URL): Promise<NoticesPageData> {
  const [list, unread] = await Promise.all([listNotices(email, pageOf(url)), unreadCount(email)]);
  return {
    rows: list.rows.map((r) => ({
      id: r.id,
      title: r.title,
      body: r.body,
      link: safePortalLink(r.link),
      links: r.links.filter((l) => safePortalLink(l.path) !== null),
      createdAt: r.createdAt.toISOString(),
      unread: r.readAt === null,
    })),
    total: list.total,
    unread,
    page: list.page,
    pageCount: list.pageCount,
  };
}

const noticeId = z.string().regex(/^[0-9a-f]{24}$/i);
const noticeActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("open"), id: noticeId }),
  z.object({ intent: z.literal("read"), id: noticeId }),
  z.object({ intent: z.literal("readAll") }),
]);

export type NoticeActionData = { error: string };

/** One string per field, or null when a field is repeated or a file (a forged form). */
function singleFields(formData: FormData): Record<string, string> | null {
  const fields: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value !== "string" || Object.hasOwn(fields, key)) return null;
    fields[key] = value;
  }
  return fields;
}

async function readFields(request: Request): Promise<Record<string, string> | null> {
  const formData = await request.formData().catch(() => null);
  return formData ? singleFields(formData) : null;
}

/**
 * The notice list's forms: open one (marks it read, then goes to its portal link, or stays on the list), mark one
 * read, mark all read. Only the user's own notices: another user's id changes nothing and answers 404.
 */
export async function noticesAction(email: string, request: Request, now = new Date()) {
  const page = pageOf(new URL(request.url));
  const fields = await readFields(request);
  const parsed = fields ? noticeActionSchema.safeParse(fields) : null;
  if (!parsed?.success) return data<NoticeActionData>({ error: noticeTexts.invalidRequest }, { status: 400 });
  const input = parsed.data;
  if (input.intent === "readAll") {
    const count = await markAllNoticesRead(email, now);
    return redirectWithToast(listUrl(page), { description: noticeTexts.markedAllRead(count) });
  }
  const notice = await markNoticeRead(email, input.id, now);
  if (!notice) return data<NoticeActionData>({ error: noticeTexts.noticeNotFound }, { status: 404 });
  if (input.intent === "open") return redirect(safePortalLink(notice.link) ?? listUrl(page));
  return redirect(listUrl(page));
}

export type SettingsPageData = {
  emailNotices: boolean;
  jobSuccessNotices: boolean;
  onCallFailures: boolean;
  /** Whether the on-call switch is shown and accepted: a SYSTEM ADMIN's. */
  canChooseOnCall: boolean;
};

export async function loadSettingsPage(email: string, type?: string): Promise<SettingsPageData> {
  const preferences = await getPreferences(email);
  const canChooseOnCall = type === ON_CALL_TYPE;
  return {
    emailNotices: preferences.emailNotices,
    jobSuccessNotices: preferences.jobSuccessNotices,
    onCallFailures: canChooseOnCall && preferences.onCallFailures,
    canChooseOnCall,
  };
}

/**
 * The settings form: a checkbox is sent as "on" when ticked and not at all when not. Unknown fields are refused, so
 * a later preference is added here, in the model and on the page together.
 */
const settingsSchema = z
  .object({
    intent: z.literal("save"),
    emailNotices: z.literal("on").optional(),
    jobSuccessNotices: z.literal("on").optional(),
    onCallFailures: z.literal("on").optional(),
  })
  .strict();

export type SettingsActionData = { error: string };

export async function settingsAction(email: string, request: Request, now = new Date(), type?: string) {
  const fields = await readFields(request);
  const parsed = fields ? settingsSchema.safeParse(fields) : null;
  if (!parsed?.success) return data<SettingsActionData>({ error: noticeTexts.invalidSettings }, { status: 400 });
  const canChooseOnCall = type === ON_CALL_TYPE;
  // The on-call switch is a SYSTEM ADMIN's: anyone else who sends it is refused and nothing is saved.
  if (!canChooseOnCall && parsed.data.onCallFailures === "on")
    return data<SettingsActionData>({ error: noticeTexts.onCallNotAllowed }, { status: 400 });
  await savePreferences(
    email,
    {
      emailNotices: parsed.data.emailNotices === "on",
      jobSuccessNotices: parsed.data.jobSuccessNotices === "on",
      ...(canChooseOnCall ? { onCallFailures: parsed.data.onCallFailures === "on" } : {}),
    },
    now,
  );
  return redirectWithToast(SETTINGS_PATH, { description: noticeTexts.saved });
}
