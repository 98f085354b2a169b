/**
 * The explorer's query rules (spec 001 §2, §5): the search text is stripped of punctuation,
 * matching ignores case and accents, "Frase Exata" asks for the words in that order, and what is too long
 * is cut with a notice instead of silently. Pure, so the server, the browser and the tests share it.
 * (Stemming and ranking are the server's: app/models/explorer-search-terms.server.ts, app/models/explorer.server.ts.)
 */

/** The longest search text read, and the most words searched for; what lies beyond is reported, not searched. */
export const SEARCH_MAX_LENGTH = 500;
export const SEARCH_MAX_WORDS = 32;
/** The last word is also read as the start of a word (as one types) from this many letters on. */
export const PREFIX_MIN_LENGTH = 3;

/**
 * The normal form of stored search text and of search terms: lower case, no accents, punctuation turned
 * into spaces, single spaces. Applying it to both sides makes word and exact-phrase matching agree.
 */
export function normalizeSearchText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** The distinct words of a text in normal form, in order of first appearance. */
export function searchWordsOf(text: string): string[] {
  const normal = normalizeSearchText(text);
  return normal ? [...new Set(normal.split(" "))] : [];
}

/** A word of the query: as typed (lower case, accents kept: what the stemmer reads) and in normal form. */
export type QueryWord = { typed: string; normal: string };

export type SearchQuery = {
  /** The words searched for, in the order typed (repeats dropped unless they are part of a phrase). */
  words: QueryWord[];
  exact: boolean;
  /** The last word may be the start of a longer word (not for a phrase; at least PREFIX_MIN_LENGTH letters). */
  prefix: boolean;
  /** What was not searched: the words past SEARCH_MAX_WORDS, and whether the text was cut at SEARCH_MAX_LENGTH. */
  dropped: { words: string[]; cut: boolean };
};

/** The words of a text: runs of letters and digits (punctuation, symbols and operators are separators). */
function wordsOf(text: string): QueryWord[] {
  const out: QueryWord[] = [];
  for (const found of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    for (const normal of normalizeSearchText(found[0]).split(" "))
      if (normal) out.push({ typed: found[0].normalize("NFC"), normal });
  }
  return out;
}

/** The query a search box text stands for, or null when nothing searchable is left after stripping punctuation. */
export function parseSearch(text: string, exact: boolean): SearchQuery | null {
  const cut = text.length > SEARCH_MAX_LENGTH;
  const all = wordsOf(text.slice(0, SEARCH_MAX_LENGTH));
  if (all.length === 0) return null;
  const candidates = exact ? all : all.filter((w, i) => all.findIndex((x) => x.normal === w.normal) === i);
  const words = candidates.slice(0, SEARCH_MAX_WORDS);
  const last = words[words.length - 1];
  return {
    words,
    exact,
    prefix: !exact && last.normal.length >= PREFIX_MIN_LENGTH && !/^\d+$/.test(last.normal),
    dropped: { words: candidates.slice(SEARCH_MAX_WORDS).map((w) => w.typed), cut },
  };
}

/**
 * A regular expression, over stored normal-form text, that matches the query's phrase as whole words.
 * Normal-form words hold only [a-z0-9], so nothing needs escaping.
 */
export function phrasePattern(query: SearchQuery): string {
  return `(^| )${query.words.map((w) => w.normal).join(" ")}( |$)`;
}

/** A piece of text, marked when it matched the query. */
export type Segment = { text: string; match: boolean };

/** The facets a search can be narrowed by, as URL parameters. */
export const FACETS = ["source", "category", "year"] as const;
export type Facet = (typeof FACETS)[number];
export type FacetFilters = Partial<Record<Facet, string>>;

/** The facet selections of a URL: plain strings of sane length, a year of four digits; anything else is no filter. */
export function parseFacetFilters(params: URLSearchParams): FacetFilters {
  const filters: FacetFilters = {};
  for (const facet of FACETS) {
    const value = params.get(facet);
    if (value === null || value === "" || value.length > 120) continue;
    if (facet === "year" && !/^\d{4}$/.test(value)) continue;
    filters[facet] = value;
  }
  return filters;
}
