import { TOKEN_ADMIN_TYPE } from "~/access";
import {
  type ApiTokenRecord,
  claimExpiryWarning,
  listTokensDueWarning,
  TOKEN_PREFIX,
} from "~/models/api-tokens.server";
import { type NoticeInput, notify } from "~/models/notices.server";
import { usersOfTypes } from "~/models/user-permissions.server";
import { formatDateTime } from "~/shared/dates";
import { EXPIRY_WARNING_DAYS } from "./lifetimes";
import { tokenTexts } from "./texts";
import { SCIM_TOKENS_PATH, TOKENS_PATH } from "./tokens.server";

/**
 * The warnings before a token expires (the daily task "token-expiry-warnings"): EXPIRY_WARNING_DAYS (14, then 3) days
 * before, a personal token's owner, and every SYSTEM ADMIN for a SCIM token (a directory's provisioning stops
 * silently when its token expires), get a notice and its e-mail. Each warning is claimed on the token with one atomic
 * update before it is sent, so it goes out once however often and by however many processes the check runs; the
 * nearest warning due is the one sent (a check that missed the 14-day one sends the 3-day one alone), and a warning a
 * token never lived past (a 10-day token is never 14 days from its end) is marked passed without being sent.
 */

export const TOKEN_EXPIRY_NOTICE = "token.expiry";
const DAY_MS = 86_400_000;
/** Tokens read per query; a claimed token leaves the query, so the loop ends. */
const BATCH = 200;

function noticesFor(token: ApiTokenRecord, expiresAt: Date, now: Date, admins: string[]): NoticeInput[] {
  const daysLeft = Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS));
  const label = `${token.name} (${TOKEN_PREFIX[token.kind]}${token.hint}…)`;
  const when = formatDateTime(expiresAt);
  const scim = token.kind === "scim";
  const recipients = scim ? admins : token.owner ? [token.owner] : [];
  return recipients.map((to) => ({
    to,
    kind: TOKEN_EXPIRY_NOTICE,
    title: tokenTexts.expiry.title(token.kind, token.name, daysLeft),
    body: scim ? tokenTexts.expiry.scimBody(label, when) : tokenTexts.expiry.personalBody(label, when),
    link: scim ? SCIM_TOKENS_PATH : TOKENS_PATH,
  }));
}

/** Sends the warnings due at `now`; answers how many notices it sent. */
export async function sendTokenExpiryWarnings(now: Date): Promise<number> {
  let admins: string[] | null = null;
  let sent = 0;
  // The nearest warning first: a token it claims is no longer due the farther one.
  for (const days of [...EXPIRY_WARNING_DAYS].sort((a, b) => a - b)) {
    for (;;) {
      const due = await listTokensDueWarning(now, days, BATCH);
      if (due.length === 0) break;
      const notices: NoticeInput[] = [];
      for (const token of due) {
        if (!token.expiresAt || !(await claimExpiryWarning(token._id, days, now))) continue;
        // A token made with a life of `days` or less was never `days` from its end: that warning has passed unsent.
        if (token.expiresAt.getTime() - token.createdAt.getTime() <= days * DAY_MS) continue;
        if (token.kind === "scim" && admins === null)
          admins = (await usersOfTypes([TOKEN_ADMIN_TYPE])).map((u) => u.user);
        notices.push(...noticesFor(token, token.expiresAt, now, admins ?? []));
      }
      await notify(notices, now);
      sent += notices.length;
      if (due.length < BATCH) break;
    }
  }
  return sent;
}
