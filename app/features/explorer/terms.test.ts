import { describe, expect, it } from "vitest";
import {
  documentSearchFields,
  foldedStem,
  highlight,
  type Matcher,
  snippet,
  vocabularyOf,
  wordKey,
} from "~/models/explorer-search-terms.server";

const marked = (segments: { text: string; match: boolean }[]) =>
  segments.map((s) => (s.match ? `[${s.text}]` : s.text)).join("");
const matcher = (words: string[], prefix: string | null = null): Matcher => ({
  keys: new Set(words.map(wordKey)),
  prefix,
  phrase: null,
});

describe("word keys (Portuguese Snowball stems, folded)", () => {
  it("stem like MongoDB's Portuguese text index, accents and case folded", () => {
    expect(foldedStem("energias")).toBe("energ");
    expect(foldedStem("Manutenção")).toBe("manutenca");
  });

  it("give singular and plural one key, also for -ção/-ções and without accents", () => {
    for (const [a, b] of [
      ["manutenção", "manutenções"],
      ["manutencao", "manutenções"],
      ["geração", "gerações"],
      ["loja", "lojas"],
      ["solar", "solares"],
      ["consultora", "consultoras"],
    ]) {
      expect(wordKey(a), `${a} ~ ${b}`).toBe(wordKey(b));
    }
    expect(wordKey("energia")).not.toBe(wordKey("energético"));
    expect(wordKey("solar")).not.toBe(wordKey("solicitação"));
  });
});

describe("documentSearchFields and vocabularyOf", () => {
  it("store the normal text, the distinct words and the distinct keys", () => {
    const fields = documentSearchFields("Manutenção das usinas", "As manutenções, preventivas!");
    expect(fields.searchText).toBe("manutencao das usinas as manutencoes preventivas");
    expect(fields.words).toEqual(["manutencao", "das", "usinas", "as", "manutencoes", "preventivas"]);
    expect(fields.stems).toContain(wordKey("manutenção"));
    expect(new Set(fields.stems).size).toBe(fields.stems.length);
  });

  it("count each word once per document and keep its accented spellings", () => {
    const vocabulary = vocabularyOf([
      { title: "Manutenção", body: "manutenção e MANUTENÇÃO" },
      { title: "Manutencao", body: "outra" },
    ]);
    const entry = vocabulary.find((e) => e._id === "manutencao")!;
    expect(entry).toMatchObject({ n: 2, key: wordKey("manutenção") });
    expect(entry.forms.sort()).toEqual(["manutencao", "manutenção"]);
  });
});

describe("highlight and snippet", () => {
  it("marks words by key (plural, accents, case) and by the start of the last word", () => {
    expect(marked(highlight("MANUTENÇÕES preventivas e a manutenção corretiva", matcher(["manutenção"])))).toBe(
      "[MANUTENÇÕES] preventivas e a [manutenção] corretiva",
    );
    expect(marked(highlight("Manutenção preventiva", matcher([], "manut")))).toBe("[Manutenção] preventiva");
  });

  it("marks an exact phrase only as a run", () => {
    const phrase: Matcher = { keys: new Set(), prefix: null, phrase: ["energia", "solar"] };
    expect(marked(highlight("Energia solar, energia eólica e solar; ENERGIA   SOLAR", phrase))).toBe(
      "[Energia solar], energia eólica e solar; [ENERGIA   SOLAR]",
    );
  });

  it("shows the window around the best match of a long text, with ellipses", () => {
    const words = Array.from({ length: 100 }, (_, i) => `palavra${i}`);
    words[60] = "usina";
    words[62] = "solar";
    const text = `${words.join(" ")}.`;
    const cut = marked(snippet(text, matcher(["usina", "solar"]), 20));
    expect(cut.startsWith("… palavra56 ")).toBe(true);
    expect(cut).toContain("[usina] palavra61 [solar]");
    expect(cut.endsWith(" …")).toBe(true);
    expect(marked(snippet("Curto e solar.", matcher(["solar"])))).toBe("Curto e [solar].");
  });
});
