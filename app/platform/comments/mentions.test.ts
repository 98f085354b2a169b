import { describe, expect, it } from "vitest";
import { handlesOf, MENTIONS_MAX, mentionTokens, resolveMentions } from "./mentions";

/** `@name` in a comment: what is read as a mention, and whom it names among the people who may read the screen. */

describe("the mentions a comment's text holds", () => {
  it.each([
    ["@ana veja março", ["ana"]],
    ["Oi @ana.souza, e @Bruno-Lima.", ["ana.souza", "bruno-lima"]],
    ["(@carla) e @dora@empresa.com.br!", ["carla", "dora@empresa.com.br"]],
    ["escreva para ana@empresa.com", []],
    ["@ana e de novo @ANA", ["ana"]],
    ["@ @. @-", []],
    ["linha\n@joão_p", ["joão_p"]],
  ])("%j → %j", (text, tokens) => {
    expect(mentionTokens(text)).toEqual(tokens);
  });

  it("reads a long text in one pass, each name bounded", () => {
    const text = `${"@a".repeat(50_000)} ${"x".repeat(100_000)}`;
    expect(mentionTokens(text).length).toBe(1);
    expect(mentionTokens(`@${"b".repeat(500)}`)).toEqual([]);
  });
});

const readers = [
  { email: "ana.souza@empresa.com", name: "Ana Souza" },
  { email: "bruno@empresa.com", name: "Bruno Lima" },
  { email: "bruno@filial.com", name: "Bruno Alves" },
];

describe("whom a mention names", () => {
  it("names a reader by the part of the e-mail before @, or by the whole e-mail when that part is shared", () => {
    expect(handlesOf(readers)).toEqual(
      new Map([
        ["ana.souza@empresa.com", "ana.souza"],
        ["bruno@empresa.com", "bruno@empresa.com"],
        ["bruno@filial.com", "bruno@filial.com"],
      ]),
    );
    expect(resolveMentions(["ana.souza", "bruno@filial.com", "ANA.SOUZA@empresa.com"], readers)).toEqual({
      ok: true,
      emails: ["ana.souza@empresa.com", "bruno@filial.com"],
    });
  });

  it("refuses a name no reader has, and one two readers share", () => {
    expect(resolveMentions(["ana.souza", "carla"], readers)).toEqual({ ok: false, token: "carla", reason: "unknown" });
    expect(resolveMentions(["bruno"], readers)).toEqual({ ok: false, token: "bruno", reason: "ambiguous" });
  });

  it(`refuses more than ${MENTIONS_MAX} people in one comment`, () => {
    const many = Array.from({ length: MENTIONS_MAX + 1 }, (_, i) => ({ email: `p${i}@e.com`, name: `P${i}` }));
    expect(
      resolveMentions(
        many.slice(0, MENTIONS_MAX).map((p) => `p${many.indexOf(p)}`),
        many,
      ),
    ).toMatchObject({
      ok: true,
    });
    expect(
      resolveMentions(
        many.map((_, i) => `p${i}`),
        many,
      ),
    ).toEqual({ ok: false, token: `p${MENTIONS_MAX}`, reason: "tooMany" });
  });
});
