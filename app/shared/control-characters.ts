/**
 * Control characters in a string that came from outside (a path, a link, a header): a check by code unit, so the
 * ranges are spelt as numbers rather than as control characters inside a pattern.
 */

/** Whether `text` holds a C0 control character (U+0000 to U+001F), or also DEL (U+007F) when `withDelete`. */
export function hasControlCharacter(text: string, withDelete: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (withDelete && code === 0x7f)) return true;
  }
  return false;
}
