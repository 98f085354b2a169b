import { describe, expect, it } from "vitest";
import { hasControlCharacter } from "./control-characters";

describe("hasControlCharacter", () => {
  it("finds U+0000 to U+001F, and DEL only when asked, anywhere in the text", () => {
    const found: number[] = [];
    const foundWithDelete: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const text = `/a${String.fromCharCode(code)}b`;
      if (hasControlCharacter(text, false)) found.push(code);
      if (hasControlCharacter(text, true)) foundWithDelete.push(code);
    }
    const c0 = Array.from({ length: 0x20 }, (_, code) => code);
    expect(found).toEqual(c0);
    expect(foundWithDelete).toEqual([...c0, 0x7f]);
  });

  it("finds nothing in plain text, accents and C1 characters", () => {
    expect(hasControlCharacter("/ij/relatório?x=1#a", true)).toBe(false);
    expect(hasControlCharacter("\u0085\u009f\u00a0", true)).toBe(false);
    expect(hasControlCharacter("", true)).toBe(false);
  });
});
