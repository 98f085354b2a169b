import { describe, expect, it } from "vitest";
import {
  normalizeSearchText,
  parseFacetFilters,
  parseSearch,
  phrasePattern,
  SEARCH_MAX_LENGTH,
  SEARCH_MAX_WORDS,
  searchWordsOf,
} from "./explorer-search";

const normals = (text: string, exact = false) => parseSearch(text, exact)?.words.map((w) => w.normal);

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
  it("strips punctuation before searching, keeps the typed word (accents) for the stemmer, and gives nothing for punctuation only", () => {
    expect(parseSearch("Manutenção, solar!", false)).toEqual({
      words: [
        { typed: "manutenção", normal: "manutencao" },
        { typed: "solar", normal: "solar" },
      ],
      exact: false,
      prefix: true,
      dropped: { words: [], cut: false },
    });
    for (const text of [" ?!., ", "", "$$$ {} [] .* ^$ |", "—"]) expect(parseSearch(text, false), text).toBeNull();
  });

  it("treats operators and regular-expression characters as separators", () => {
    expect(normals('{"$where":"1"} .* (a|b)+ solar')).toEqual(["where", "1", "a", "b", "solar"]);
  });

  it("drops repeated words unless the phrase is exact; a phrase never widens its last word", () => {
    expect(normals("meta meta loja")).toEqual(["meta", "loja"]);
    expect(normals("meta meta loja", true)).toEqual(["meta", "meta", "loja"]);
    expect(parseSearch("energia sol", true)?.prefix).toBe(false);
  });

  it("widens the last word only from 3 letters on, and never a number", () => {
    expect(parseSearch("energia manut", false)?.prefix).toBe(true);
    expect(parseSearch("energia ma", false)?.prefix).toBe(false);
    expect(parseSearch("vendas 2026", false)?.prefix).toBe(false);
  });

  it(`searches at most ${SEARCH_MAX_WORDS} words and ${SEARCH_MAX_LENGTH} characters, and says what it left out`, () => {
    const words = Array.from({ length: SEARCH_MAX_WORDS + 3 }, (_, i) => `w${i}`);
    const query = parseSearch(words.join(" "), false)!;
    expect(query.words.map((w) => w.normal)).toEqual(words.slice(0, SEARCH_MAX_WORDS));
    expect(query.dropped).toEqual({ words: words.slice(SEARCH_MAX_WORDS), cut: false });
    const long = parseSearch(`solar ${"x".repeat(10_000)}`, false)!;
    expect(long.dropped.cut).toBe(true);
    expect(long.words.map((w) => w.normal)).toEqual(["solar", "x".repeat(SEARCH_MAX_LENGTH - 6)]);
  });
});

describe("phrasePattern", () => {
  it("matches the phrase as whole words only", () => {
    const pattern = new RegExp(phrasePattern(parseSearch("Energia, solar", true)!));
    expect(pattern.test("geracao de energia solar no mes")).toBe(true);
    expect(pattern.test("energia solares")).toBe(false);
    expect(pattern.test("energia eolica e solar")).toBe(false);
    expect(pattern.test("energia solar")).toBe(true);
  });
});

describe("parseFacetFilters", () => {
  it("keeps plain values and four-digit years, and ignores operators in parameter names or odd values", () => {
    const params = new URLSearchParams("source=Intranet&category=&year=20x6&category[$ne]=a&source[$gt]=");
    expect(parseFacetFilters(params)).toEqual({ source: "Intranet" });
    expect(parseFacetFilters(new URLSearchParams("year=2025&category=%7B%22%24ne%22%3A1%7D"))).toEqual({
      year: "2025",
      category: '{"$ne":1}',
    });
    expect(parseFacetFilters(new URLSearchParams(`source=${"a".repeat(121)}`))).toEqual({});
  });
});
