/** `text` as a regular expression that matches it literally: every character a pattern gives a meaning to is escaped. */
export function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
