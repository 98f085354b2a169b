/**
 * Job-list truncation (spec 000 §9): a file name is cut to 15 characters plus dots; a message
 * longer than 45 characters is cut to 42 plus dots (the full text goes to a tooltip). Counted in
 * characters (code points), so an accent or an emoji is never split in half.
 */

export const JOB_NAME_LIMIT = 15;
export const JOB_MESSAGE_LIMIT = 45;
export const JOB_MESSAGE_CUT = 42;
const DOTS = "...";

export type Truncated = { text: string; truncated: boolean };

function cut(value: string | null | undefined, limit: number, keep: number): Truncated {
  const text = value ?? "";
  // A string of at most `limit` UTF-16 units has at most `limit` characters: most names and messages end here.
  if (text.length <= limit) return { text, truncated: false };
  // Walks characters (a surrogate pair is one, a lone surrogate one) only until the limit is passed: a long message
  // costs what its first `limit + 1` characters do.
  let at = 0;
  let kept = 0;
  for (let chars = 0; at < text.length; chars++) {
    if (chars === keep) kept = at;
    if (chars === limit) return { text: text.slice(0, kept) + DOTS, truncated: true };
    at += isPairAt(text, at) ? 2 : 1;
  }
  return { text, truncated: false };
}

/** A high surrogate followed by a low one: one character of two UTF-16 units. */
function isPairAt(text: string, at: number): boolean {
  const high = text.charCodeAt(at);
  if (high < 0xd800 || high > 0xdbff) return false;
  const low = text.charCodeAt(at + 1);
  return low >= 0xdc00 && low <= 0xdfff;
}

export function truncateJobName(name: string | null | undefined): Truncated {
  return cut(name, JOB_NAME_LIMIT, JOB_NAME_LIMIT);
}

export function truncateJobMessage(message: string | null | undefined): Truncated {
  return cut(message, JOB_MESSAGE_LIMIT, JOB_MESSAGE_CUT);
}
