/**
 * `@name` in a comment. A mention starts with "@" at the start of the text or after a character that cannot be part of
 * an e-mail (so "ana@empresa.com" in a sentence is no mention), and names a person by the part of the e-mail before
 * "@" or, when two of the people offered share it, by the whole e-mail. A trailing "." or "-" ends a sentence, not a
 * name. Read in one pass; a name longer than NAME_MAX is no mention.
 */

/** People one comment may mention. */
export const MENTIONS_MAX = 20;
const NAME_MAX = 254;

const MENTION = /(?:^|[^\p{L}\p{N}._+\-@])@([\p{L}\p{N}_+][\p{L}\p{N}._+-]*(?:@[\p{L}\p{N}][\p{L}\p{N}.-]*)?)/gu;

/** The names the text mentions, lower case, each once, in order. */
export function mentionTokens(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const token = match[1].replace(/[.-]+$/, "").toLowerCase();
    if (token.length > 0 && token.length <= NAME_MAX) seen.add(token);
  }
  return [...seen];
}

export type Mentionable = { email: string; name: string };

const localPart = (email: string) => email.slice(0, email.lastIndexOf("@")).toLowerCase();

/** Each person's name to mention: the e-mail's local part, or the whole e-mail when another person shares it. */
export function handlesOf(people: readonly Mentionable[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const p of people) count.set(localPart(p.email), (count.get(localPart(p.email)) ?? 0) + 1);
  return new Map(
    people.map((p) => {
      const email = p.email.toLowerCase();
      return [email, count.get(localPart(email)) === 1 ? localPart(email) : email];
    }),
  );
}

export type MentionResolution =
  | { ok: true; emails: string[] }
  | { ok: false; token: string; reason: "unknown" | "ambiguous" | "tooMany" };

/** The e-mails the names point to among `people`; the first name that is nobody's, or anybody's of two, refuses all. */
export function resolveMentions(tokens: readonly string[], people: readonly Mentionable[]): MentionResolution {
  const byEmail = new Set(people.map((p) => p.email.toLowerCase()));
  const byLocal = new Map<string, string[]>();
  for (const email of byEmail) {
    const list = byLocal.get(localPart(email));
    if (list) list.push(email);
    else byLocal.set(localPart(email), [email]);
  }
  const emails: string[] = [];
  for (const raw of tokens) {
    const token = raw.toLowerCase();
    const found = token.includes("@") ? (byEmail.has(token) ? [token] : []) : (byLocal.get(token) ?? []);
    if (found.length === 0) return { ok: false, token: raw, reason: "unknown" };
    if (found.length > 1) return { ok: false, token: raw, reason: "ambiguous" };
    if (!emails.includes(found[0])) {
      if (emails.length === MENTIONS_MAX) return { ok: false, token: raw, reason: "tooMany" };
      emails.push(found[0]);
    }
  }
  return { ok: true, emails };
}
