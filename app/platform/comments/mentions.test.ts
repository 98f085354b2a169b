import { describe, expect, it } from "vitest";
import { hasMentions, MENTIONS_MAX, mentionsOf, ownName, resolveMentions } from "./mentions";

/** `@name` in a comment: whom it names among the people who may read the screen, by name, never by e-mail. */

const readers = [
  { email: "ana.souza@empresa.com", name: "Ana Souza", id: "6650f1c2a1b2c3d4e5f60701" },
  { email: "bruno@empresa.com", name: "Bruno Lima", id: "6650f1c2a1b2c3d4e5f60702" },
  { email: "b.lima@filial.com", name: "Bruno  LIMA", id: "6650f1c2a1b2c3d4e5f60703" },
  { email: "j.silva@empresa.com", name: "João", id: "6650f1c2a1b2c3d4e5f60704" },
  { email: "joao.p@empresa.com", name: "João Pedro", id: "6650f1c2a1b2c3d4e5f60705" },
  { email: "c.dias@empresa.com", name: "c.dias", id: "6650f1c2a1b2c3d4e5f60706" },
];

describe("the name a person is mentioned by", () => {
  it("is their name, with a code when another has it too, or the code alone when they have no name of their own", () => {
    const mentions = mentionsOf(readers);
    expect([...mentions.values()].map((m) => m.mention)).toEqual([
      "Ana Souza",
      "Bruno Lima#f60702",
      "Bruno LIMA#f60703",
      "João",
      "João Pedro",
      "#f60706",
    ]);
    expect(ownName({ email: "c.dias@empresa.com", name: "C.Dias" })).toBe("");
    expect(ownName({ email: "joao@empresa.com", name: "João" })).toBe("");
    expect(ownName({ email: "x@empresa.com", name: "x@empresa.com" })).toBe("");
  });

  it("lengthens a code only where its end is shared", () => {
    const twins = [
      { email: "a@e.com", name: "A", id: "aaaaaa0123456789" },
      { email: "b@e.com", name: "A", id: "bbbbbb0123456789" },
      { email: "c@e.com", name: "A", id: "cccccc0123456788" },
    ];
    expect([...mentionsOf(twins).values()].map((m) => m.tag)).toEqual(["a0123456789", "b0123456789", "456788"]);
  });
});

describe("whom a comment's mentions name", () => {
  it.each([
    ["@Ana Souza veja março", ["ana.souza@empresa.com"]],
    ["Oi @ana souza, e @JOAO PEDRO.", ["ana.souza@empresa.com", "joao.p@empresa.com"]],
    ["(@João) e @João Pedro!", ["j.silva@empresa.com", "joao.p@empresa.com"]],
    ["@Bruno Lima#f60703 e @#f60706", ["b.lima@filial.com", "c.dias@empresa.com"]],
    ["escreva para ana@empresa.com", []],
    ["@Ana Souza e de novo @ana   souza", ["ana.souza@empresa.com"]],
    ["@ @. @-", []],
  ])("%j → %j", (text, emails) => {
    expect(resolveMentions(text, readers)).toEqual({ ok: true, emails });
  });

  it("refuses a name nobody has, a name two have, and an e-mail or its part before @", () => {
    expect(resolveMentions("@Ana Souza e @carla", readers)).toEqual({ ok: false, token: "carla", reason: "unknown" });
    expect(resolveMentions("@Bruno Lima veja", readers)).toEqual({
      ok: false,
      token: "Bruno Lima",
      reason: "ambiguous",
    });
    expect(resolveMentions("@ana.souza", readers)).toMatchObject({ ok: false, reason: "unknown" });
    expect(resolveMentions("@c.dias", readers)).toMatchObject({ ok: false, reason: "unknown" });
    expect(resolveMentions("@ana.souza@empresa.com", readers)).toMatchObject({ ok: false, reason: "unknown" });
    expect(resolveMentions("@#ffffff", readers)).toEqual({ ok: false, token: "#ffffff", reason: "unknown" });
  });

  it(`refuses more than ${MENTIONS_MAX} people in one comment`, () => {
    const many = Array.from({ length: MENTIONS_MAX + 1 }, (_, i) => ({
      email: `p${i}@e.com`,
      name: `Pessoa ${i}`,
      id: `6650f1c2a1b2c3d4e5f607${String(i).padStart(2, "0")}`,
    }));
    const text = (n: number) =>
      many
        .slice(0, n)
        .map((p) => `@${p.name}`)
        .join(" ");
    expect(resolveMentions(text(MENTIONS_MAX), many)).toMatchObject({ ok: true });
    expect(resolveMentions(text(MENTIONS_MAX + 1), many)).toEqual({
      ok: false,
      token: `Pessoa ${MENTIONS_MAX}`,
      reason: "tooMany",
    });
  });

  it("reads a long text in one pass, each name looked for near its @", () => {
    const text = `${"@a ".repeat(50_000)} ${"x".repeat(100_000)}`;
    const started = performance.now();
    expect(hasMentions(text)).toBe(true);
    expect(resolveMentions(text, readers)).toMatchObject({ ok: false, token: "a", reason: "unknown" });
    expect(resolveMentions(`@${"b ".repeat(500)}`, [{ email: "b@e.com", name: "b ".repeat(500), id: "1" }])).toEqual({
      ok: false,
      token: "b",
      reason: "unknown",
    });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
