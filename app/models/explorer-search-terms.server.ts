import { createRequire } from "node:module";
import { normalizeSearchText, type Segment, searchWordsOf } from "./explorer-search";

/**
 * How the explorer relates words: Portuguese Snowball stems (the `snowball-stemmers` package — the
 * algorithm MongoDB's text index uses for `default_language: "portuguese"`), folded to lower case without
 * accents. Snowball keeps the nasal vowel of "-ção"/"-ções" ("manutençã" / "manutençõ"), so singular and plural
 * of those words stem apart; the explorer's word key therefore drops the stem's final vowels after folding
 * ("manutenc" for both). Documents store their keys (`stems`); a query word matches a document holding its key.
 */

type Stemmer = { stem(word: string): string };
const require = createRequire(import.meta.url);
const stemmer = (require("snowball-stemmers") as { newStemmer(language: string): Stemmer }).newStemmer("portuguese");

const stemCache = new Map<string, string>();

/** Lower case, no accents. */
export function fold(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The Snowball stem of a lower-case word, folded (what MongoDB's text index stores for it). */
export function foldedStem(word: string): string {
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = fold(stemmer.stem(word.toLowerCase()));
    if (stemCache.size > 100_000) stemCache.clear();
    stemCache.set(word, stem);
  }
  return stem;
}

/** The explorer's key of a word: its folded stem without final vowels (never empty). */
export function wordKey(word: string): string {
  const stem = foldedStem(word);
  return stem.replace(/[aeiou]+$/, "") || stem;
}

/** The search fields of a document, from its title and text. */
export type DocumentSearchFields = {
  /** Normal-form title + text: what an exact phrase is matched against. */
  searchText: string;
  /** Distinct normal-form words. */
  words: string[];
  /** Distinct word keys: what every query word must find (AND). */
  stems: string[];
};

type Token = { start: number; end: number; raw: string };

/** The words of a text with their positions. */
export function tokensOf(text: string): Token[] {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
    raw: m[0],
  }));
}

export function documentSearchFields(title: string, body: string): DocumentSearchFields {
  const text = `${title} ${body}`;
  const stems = new Set<string>();
  for (const token of tokensOf(text)) stems.add(wordKey(token.raw.toLowerCase()));
  return { searchText: normalizeSearchText(text), words: searchWordsOf(text), stems: [...stems] };
}

/** One entry of the explorer's vocabulary: a normal-form word, its key, how it is written, in how many documents. */
export type VocabularyEntry = { _id: string; key: string; forms: string[]; n: number };

/** The most spellings kept per word (accented variants seen in the text). */
export const MAX_FORMS = 4;

/** The vocabulary of a set of documents (the seed writes it whole; inserts update it). */
export function vocabularyOf(docs: Iterable<{ title: string; body: string }>): VocabularyEntry[] {
  const entries = new Map<string, { key: string; forms: Set<string>; n: number }>();
  for (const doc of docs) {
    const seen = new Set<string>();
    for (const token of tokensOf(`${doc.title} ${doc.body}`)) {
      const lower = token.raw.toLowerCase();
      for (const normal of normalizeSearchText(lower).split(" ")) {
        if (!normal) continue;
        let entry = entries.get(normal);
        if (!entry) entries.set(normal, (entry = { key: wordKey(lower), forms: new Set(), n: 0 }));
        if (entry.forms.size < MAX_FORMS) entry.forms.add(lower);
        if (!seen.has(normal)) {
          seen.add(normal);
          entry.n++;
        }
      }
    }
  }
  return [...entries].map(([word, e]) => ({ _id: word, key: e.key, forms: [...e.forms], n: e.n }));
}

// ---------------------------------------------------------------------------------------------
// Highlighting and snippets

/** Which words of a text match: the query's keys, the start of the last word, or (exact) a run spelling the phrase. */
export type Matcher = { keys: ReadonlySet<string>; prefix: string | null; phrase: string[] | null };

function matchedSpans(text: string, matcher: Matcher): Array<[number, number]> {
  const tokens = tokensOf(text);
  const spans: Array<[number, number]> = [];
  if (matcher.phrase) {
    const normals = tokens.map((t) => normalizeSearchText(t.raw));
    const n = matcher.phrase.length;
    for (let i = 0; i + n <= tokens.length; i++) {
      let same = true;
      for (let k = 0; k < n && same; k++) same = normals[i + k] === matcher.phrase[k];
      if (same) {
        spans.push([tokens[i].start, tokens[i + n - 1].end]);
        i += n - 1;
      }
    }
    return spans;
  }
  for (const token of tokens) {
    const lower = token.raw.toLowerCase();
    if (matcher.keys.has(wordKey(lower)) || (matcher.prefix !== null && fold(lower).startsWith(matcher.prefix)))
      spans.push([token.start, token.end]);
  }
  return spans;
}

function segmentsOf(text: string, spans: Array<[number, number]>): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at) continue;
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}

/** The whole text with the matching words (or phrase) marked. */
export function highlight(text: string, matcher: Matcher): Segment[] {
  return text ? segmentsOf(text, matchedSpans(text, matcher)) : [];
}

/** Words shown in a result's snippet. */
export const SNIPPET_WORDS = 32;

/**
 * The part of a text around its best match: the window of SNIPPET_WORDS words holding the most matches
 * (the first such window), with "…" where text was left out, the matches marked.
 */
export function snippet(text: string, matcher: Matcher, size = SNIPPET_WORDS): Segment[] {
  const tokens = tokensOf(text);
  if (tokens.length <= size) return highlight(text, matcher);
  const spans = matchedSpans(text, matcher);
  const hits = tokens.map((t) => (spans.some(([s, e]) => t.start >= s && t.end <= e) ? 1 : 0));
  let best = 0;
  let bestCount = -1;
  let count = 0;
  for (let i = 0; i < tokens.length; i++) {
    count += hits[i];
    if (i >= size) count -= hits[i - size];
    if (i >= size - 1 && count > bestCount) {
      bestCount = count;
      best = i - size + 1;
    }
  }
  // Start a few words before the window's first match (so it is read in context), keeping its last match.
  const firstHit = hits.indexOf(1, best);
  const lastHit = hits.lastIndexOf(1, best + size - 1);
  const start = firstHit < 0 ? best : Math.min(tokens.length - size, Math.max(0, firstHit - 4, lastHit - size + 1));
  const end = Math.min(tokens.length, start + size);
  const from = start === 0 ? 0 : tokens[start].start;
  const to = end === tokens.length ? text.length : tokens[end - 1].end;
  const part = highlight(text.slice(from, to), matcher);
  return [
    ...(from > 0 ? [{ text: "… ", match: false }] : []),
    ...part,
    ...(to < text.length ? [{ text: " …", match: false }] : []),
  ];
}
