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
  const chars = Array.from(text);
  if (chars.length <= limit) return { text, truncated: false };
  return { text: chars.slice(0, keep).join("") + DOTS, truncated: true };
}

export function truncateJobName(name: string | null | undefined): Truncated {
  return cut(name, JOB_NAME_LIMIT, JOB_NAME_LIMIT);
}

export function truncateJobMessage(message: string | null | undefined): Truncated {
  return cut(message, JOB_MESSAGE_LIMIT, JOB_MESSAGE_CUT);
}
