import { describe, expect, it } from "vitest";
import { highlightSegments, normalizeSearchText, parseSearch, phrasePattern, SEARCH_MAX_LENGTH, SEARCH_MAX_WORDS, searchWordsOf } from "./search";

const marked = (text: string, query: ReturnType<typeof parseSearch>) =>
  highlightSegments(text, query)
    .map((s) => (s.match ? `[${s.text}]` : s.text))
    .join("");

describe("normalizeSearchText", () => {
  it("lower-cases, strips accents and punctuation, and collapses spaces", () => {
    expect(normalizeSearchText("  Relatório de Sell-out:  AÇAÍ, 20%!  ")).toBe("relatorio de sell out acai 20");
    expect(normalizeSearchText("São Paulo\n- Paulista")).toBe("sao paulo paulista");
    expect(normalizeSearchText("...")).toBe("");
  });
});

describe("searchWordsOf", () => {
  it("keeps each normal-form word once, in order", () => {
    expect(searchWordsOf("Vendas, vendas e VENDAS da Lojá")).toEqual(["vendas", "e", "da", "loja"]);
    expect(searchWordsOf("!!")).toEqual([]);
  });
});

describe("parseSearch", () => {
  it("strips punctuation before searching and gives nothing for a text of punctuation only", () => {
    expect(parseSearch("energia, solar!", false)).toEqual({ words: ["energia", "solar"], exact: false });
    expect(parseSearch(" ?!., ", false)).toBeNull();
    expect(parseSearch("", true)).toBeNull();
  });

  it("drops repeated words unless the phrase is exact", () => {
    expect(parseSearch("meta meta loja", false)?.words).toEqual(["meta", "loja"]);
    expect(parseSearch("meta meta loja", true)?.words).toEqual(["meta", "meta", "loja"]);
  });

  it(`reads at most ${SEARCH_MAX_LENGTH} characters and ${SEARCH_MAX_WORDS} words`, () => {
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
    expect(parseSearch(words.join(" "), false)?.words).toEqual(words.slice(0, 12));
    expect(parseSearch(`${"a".repeat(199)} bcd`, false)?.words).toEqual(["a".repeat(199)]);
  });
});

describe("phrasePattern", () => {
  it("matches the phrase as whole words only", () => {
    const pattern = new RegExp(phrasePattern({ words: ["energia", "solar"], exact: true }));
    expect(pattern.test("geracao de energia solar no mes")).toBe(true);
    expect(pattern.test("energia solares")).toBe(false);
    expect(pattern.test("energia eolica e solar")).toBe(false);
    expect(pattern.test("energia solar")).toBe(true);
  });
});

describe("highlightSegments", () => {
  it("marks every occurrence of each word, whatever its case or accents", () => {
    const query = parseSearch("relatorio vendas", false);
    expect(marked("Relatório de VENDAS: vendas e relatórios", query)).toBe("[Relatório] de [VENDAS]: [vendas] e relatórios");
  });

  it("marks only runs that spell the exact phrase", () => {
    const query = parseSearch("Energia solar", true);
    expect(marked("Energia eólica, energia SOLAR e solar.", query)).toBe("Energia eólica, [energia SOLAR] e solar.");
  });

  it("marks a phrase across punctuation, since punctuation is not searched", () => {
    expect(marked("O sell-out subiu", parseSearch("sell out", true))).toBe("O [sell-out] subiu");
  });

  it("leaves the text whole without a query and gives nothing for an empty text", () => {
    expect(highlightSegments("Texto", null)).toEqual([{ text: "Texto", match: false }]);
    expect(highlightSegments("", parseSearch("x", false))).toEqual([]);
  });
});
