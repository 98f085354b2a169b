/**
 * `@name` in a comment. A mention starts with "@" at the start of the text or after a character that cannot be part of
 * an e-mail (so "ana@empresa.com" in a sentence is no mention), and names a person who may read the cell by the name
 * the list shows ("@Ana Souza", accents, case and spacing aside; the longest name that fits wins). Two people of the
 * same name are told apart by a code from their user record ("@Ana Souza#3f2a1c"), and a person without a name of
 * their own by that code alone ("@#3f2a1c"): never by their e-mail, which only those who may see addresses are shown.
 * Read in one pass; a name is looked for within NAME_MAX characters of its "@".
 */

/** People one comment may mention. */
export const MENTIONS_MAX = 20;
const NAME_MAX = 120;
/** The shortest code shown; longer only where that many characters do not tell two records apart. */
const TAG_MIN = 6;

/** A person who may be mentioned: the e-mail told, the name shown ("" when none), their user record's id. */
export type Mentionable = { email: string; name: string; id: string };

/** A name as compared: without accents, lower case, each run of spaces one space, no closing punctuation. */
export function nameKey(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/[^\p{L}\p{N}]+$/u, "");
}

const localPart = (email: string) => email.slice(0, email.lastIndexOf("@"));

/** The name a person goes by here: their own, or "" when it is none (empty, an e-mail, or the e-mail's local part). */
export function ownName(person: { email: string; name: string }): string {
  const name = person.name.replace(/\s+/gu, " ").trim();
  if (name.length === 0 || name.includes("@")) return "";
  return nameKey(name) === nameKey(localPart(person.email)) ? "" : name;
}

/**
 * Each person's code: the end of their record's id, TAG_MIN characters or as many more as tell it from every other
 * person's (so it stays the same while nobody else's id ends alike).
 */
export function tagsOf(people: readonly Mentionable[]): Map<string, string> {
  const ids = people.map((p) => p.id.toLowerCase());
  const tags = new Map<string, string>();
  for (let length = TAG_MIN; tags.size < ids.length; length++) {
    const count = new Map<string, number>();
    for (const id of ids) count.set(id.slice(-length), (count.get(id.slice(-length)) ?? 0) + 1);
    for (const id of ids)
      if (!tags.has(id) && (count.get(id.slice(-length)) === 1 || length >= id.length)) tags.set(id, id.slice(-length));
  }
  return tags;
}

/** What follows "@" to mention each person (by id): the name, the name and its code when shared, or the code alone. */
export function mentionsOf(people: readonly Mentionable[]): Map<string, { mention: string; tag: string | null }> {
  const tags = tagsOf(people);
  const named = new Map<string, number>();
  for (const p of people) {
    const key = nameKey(ownName(p));
    if (key) named.set(key, (named.get(key) ?? 0) + 1);
  }
  return new Map(
    people.map((p) => {
      const name = ownName(p);
      const tag = tags.get(p.id.toLowerCase()) ?? p.id;
      if (!name) return [p.id, { mention: `#${tag}`, tag }];
      return [p.id, named.get(nameKey(name)) === 1 ? { mention: name, tag: null } : { mention: `${name}#${tag}`, tag }];
    }),
  );
}

export type MentionResolution =
  | { ok: true; emails: string[] }
  | { ok: false; token: string; reason: "unknown" | "ambiguous" | "tooMany" };

const START_SOURCE = /(?:^|[^\p{L}\p{N}._+\-@])@(?=[\p{L}\p{N}_+#])/u.source;
const WORD = /^[\p{L}\p{N}._+-]*/u;
const TAG = /^#([\p{L}\p{N}]+)/u;
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Whether the text holds anything read as a mention (the readers are read only then). */
export function hasMentions(text: string): boolean {
  return new RegExp(START_SOURCE, "u").test(text);
}

/** The longest reader's name that starts at `from` (ending where a word ends), and where it ends. */
function nameAt(text: string, from: number, names: ReadonlySet<string>): { key: string; end: number } | null {
  let key = "";
  let found: { key: string; end: number } | null = null;
  for (let i = from; i < text.length && i - from < NAME_MAX; i++) {
    const c = text[i];
    if (c === "\n" || c === "@" || c === "#") break;
    if (/\s/u.test(c)) {
      if (!key.endsWith(" ")) key += " ";
      continue;
    }
    key += c.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    if (isWordChar(c) && !isWordChar(text[i + 1]) && names.has(key)) found = { key, end: i + 1 };
  }
  return found;
}

/**
 * The e-mails a text's mentions point to among `people`; the first mention that is nobody's, or that two people fit,
 * refuses all (its text as written is the `token`).
 */
export function resolveMentions(text: string, people: readonly Mentionable[]): MentionResolution {
  const byName = new Map<string, Mentionable[]>();
  for (const p of people) {
    const key = nameKey(ownName(p));
    if (key) byName.set(key, [...(byName.get(key) ?? []), p]);
  }
  const names = new Set(byName.keys());
  const byTag = (among: readonly Mentionable[], tag: string) =>
    among.filter((p) => p.id.toLowerCase().endsWith(tag.toLowerCase()));
  const emails: string[] = [];
  for (const match of text.matchAll(new RegExp(START_SOURCE, "gu"))) {
    const at = (match.index ?? 0) + match[0].length;
    let found: Mentionable[];
    let token: string;
    if (text[at] === "#") {
      const tag = TAG.exec(text.slice(at, at + NAME_MAX))?.[1] ?? "";
      token = `#${tag}`;
      found = tag ? byTag(people, tag) : [];
    } else {
      const name = nameAt(text, at, names);
      const tag = name ? TAG.exec(text.slice(name.end, name.end + NAME_MAX))?.[1] : undefined;
      token = name
        ? text.slice(at, name.end) + (tag ? `#${tag}` : "")
        : (WORD.exec(text.slice(at, at + NAME_MAX))?.[0] ?? "");
      const group = name ? (byName.get(name.key) ?? []) : [];
      found = tag ? byTag(group, tag) : group;
    }
    token = token.replace(/[.-]+$/, "");
    if (found.length === 0) return { ok: false, token, reason: "unknown" };
    if (found.length > 1) return { ok: false, token, reason: "ambiguous" };
    const email = found[0].email.toLowerCase();
    if (!emails.includes(email)) {
      if (emails.length === MENTIONS_MAX) return { ok: false, token, reason: "tooMany" };
      emails.push(email);
    }
  }
  return { ok: true, emails };
}
