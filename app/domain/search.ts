/**
 * The explorer's text rules (spec 001 §2, §5): the search text is stripped of punctuation, matching
 * ignores case and accents, "Frase Exata" asks for the words in that order, and the results show the
 * search terms highlighted. Pure, so the server and the tests share it.
 */

/** The longest search text kept, and the most words searched for (the rest is ignored). */
export const SEARCH_MAX_LENGTH = 200;
export const SEARCH_MAX_WORDS = 12;

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

/** The distinct words of a text in normal form, in order of first appearance (what the word index holds). */
export function searchWordsOf(text: string): string[] {
  const normal = normalizeSearchText(text);
  return normal ? [...new Set(normal.split(" "))] : [];
}

export type SearchQuery = {
  /** The words searched for, in normal form and in the order typed (repeats kept for a phrase). */
  words: string[];
  exact: boolean;
};

/** The query a search box text stands for, or null when nothing searchable is left after stripping punctuation. */
export function parseSearch(text: string, exact: boolean): SearchQuery | null {
  const normal = normalizeSearchText(text.slice(0, SEARCH_MAX_LENGTH));
  if (!normal) return null;
  const all = normal.split(" ");
  const words = exact ? all.slice(0, SEARCH_MAX_WORDS) : [...new Set(all)].slice(0, SEARCH_MAX_WORDS);
  return { words, exact };
}

/**
 * A regular expression, over stored normal-form text, that matches the query's phrase as whole words.
 * Normal-form words hold only [a-z0-9], so nothing needs escaping.
 */
export function phrasePattern(query: SearchQuery): string {
  return `(^| )${query.words.join(" ")}( |$)`;
}

export type Segment = { text: string; match: boolean };

type Token = { start: number; end: number; normal: string };

/** The words of an original text with their positions and their normal forms (one original word may give several). */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (const found of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const start = found.index ?? 0;
    const end = start + found[0].length;
    for (const normal of normalizeSearchText(found[0]).split(" ")) if (normal) tokens.push({ start, end, normal });
  }
  return tokens;
}

/**
 * The text cut into plain and highlighted pieces: every occurrence of a searched word (any case or
 * accent), or for an exact phrase every run of words that spells the phrase.
 */
export function highlightSegments(text: string, query: SearchQuery | null): Segment[] {
  if (!query || query.words.length === 0 || !text) return text ? [{ text, match: false }] : [];
  const tokens = tokensOf(text);
  const spans: [number, number][] = [];
  if (query.exact) {
    const n = query.words.length;
    for (let i = 0; i + n <= tokens.length; i++) {
      let same = true;
      for (let k = 0; k < n && same; k++) same = tokens[i + k].normal === query.words[k];
      if (same) {
        spans.push([tokens[i].start, tokens[i + n - 1].end]);
        i += n - 1;
      }
    }
  } else {
    const wanted = new Set(query.words);
    for (const token of tokens) if (wanted.has(token.normal)) spans.push([token.start, token.end]);
  }
  const segments: Segment[] = [];
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at) continue; // one original word split into several normal words
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}
