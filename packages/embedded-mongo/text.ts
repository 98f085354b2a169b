/**
 * Text indexes and `$text` queries, following MongoDB's text search
 * (text index version 3): words split on Unicode delimiters, lower-cased,
 * stop words dropped, stemmed with Snowball (the stemmer sees the word with
 * its accents, as MongoDB's does), then accents removed. A document's score
 * per term follows MongoDB's formula (term frequency with a decaying weight,
 * field length, field weight); a query's textScore is the sum over its
 * positive terms. Phrases match as accent- and case-insensitive substrings of
 * an indexed field; `-word` and `-"phrase"` exclude documents.
 */
import { createRequire } from "node:module";
import { MongoCommandError } from "./errors";
import type { CatalogIndex, IndexSpec, KeyEntry } from "./index-spec";
import { ENGLISH_STOP_WORDS, PORTUGUESE_STOP_WORDS } from "./text-stop-words";
import { type Doc, isPlainObject, keyOf } from "./values";

export type { TextIndexSpec } from "./index-spec";

type Stemmer = { stem(word: string): string };
const requireCjs = createRequire(import.meta.url);
const snowball = requireCjs("snowball-stemmers") as { newStemmer(language: string): Stemmer; algorithms(): string[] };

/** MongoDB's text search languages (names and ISO codes) → Snowball algorithm ("none": no stemming, no stop words). */
const LANGUAGES: Record<string, string> = {
  none: "none",
  danish: "danish",
  da: "danish",
  dutch: "dutch",
  nl: "dutch",
  english: "english",
  en: "english",
  finnish: "finnish",
  fi: "finnish",
  french: "french",
  fr: "french",
  german: "german",
  de: "german",
  hungarian: "hungarian",
  hu: "hungarian",
  italian: "italian",
  it: "italian",
  norwegian: "norwegian",
  nb: "norwegian",
  portuguese: "portuguese",
  pt: "portuguese",
  romanian: "romanian",
  ro: "romanian",
  russian: "russian",
  ru: "russian",
  spanish: "spanish",
  es: "spanish",
  swedish: "swedish",
  sv: "swedish",
  turkish: "turkish",
  tr: "turkish",
};

const STOP_WORDS: Record<string, ReadonlySet<string>> = {
  portuguese: PORTUGUESE_STOP_WORDS,
  english: ENGLISH_STOP_WORDS,
};

export function isTextLanguage(name: unknown): name is string {
  return typeof name === "string" && Object.hasOwn(LANGUAGES, name.toLowerCase());
}

type Language = { name: string; stem: (word: string) => string; stopWords: ReadonlySet<string> };
const languageCache = new Map<string, Language>();

function language(name: string): Language {
  const algorithm = LANGUAGES[name.toLowerCase()];
  if (!algorithm) throw new MongoCommandError("BadValue", `language override unsupported: ${name}`);
  let lang = languageCache.get(algorithm);
  if (!lang) {
    if (algorithm === "none") lang = { name: algorithm, stem: (w) => w, stopWords: new Set() };
    else {
      const stemmer = snowball.newStemmer(algorithm);
      const memo = new Map<string, string>();
      lang = {
        name: algorithm,
        stem: (w) => {
          let s = memo.get(w);
          if (s === undefined) {
            s = stemmer.stem(w);
            if (memo.size > 200_000) memo.clear();
            memo.set(w, s);
          }
          return s;
        },
        stopWords: STOP_WORDS[algorithm] ?? new Set(),
      };
    }
    languageCache.set(algorithm, lang);
  }
  return lang;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const DIACRITICS = /\p{M}/gu;

function stripDiacritics(s: string): string {
  return s.normalize("NFD").replace(DIACRITICS, "").normalize("NFC");
}

type TokenOptions = { filterStopWords: boolean; caseSensitive: boolean; diacriticSensitive: boolean };

/** The terms of a text as MongoDB's tokenizer produces them. */
export function tokenize(text: string, languageName: string, options: TokenOptions): string[] {
  const lang = language(languageName);
  const out: string[] = [];
  const words = text.split(/[^\p{L}\p{N}\p{M}]+/u);
  for (const raw of words) {
    if (!raw || !WORD_CHAR.test(raw)) continue;
    const lower = raw.toLowerCase();
    if (options.filterStopWords && lang.stopWords.has(lower)) continue;
    let word = lang.stem(options.caseSensitive ? raw : lower);
    if (!options.diacriticSensitive) word = stripDiacritics(word);
    out.push(word);
  }
  return out;
}

/** Folds a text the way the phrase matcher compares it. */
function foldForPhrase(text: string, caseSensitive: boolean, diacriticSensitive: boolean): string {
  let s = caseSensitive ? text : text.toLowerCase();
  if (!diacriticSensitive) s = stripDiacritics(s);
  return s;
}

export type TextQuery = {
  search: string;
  language: string;
  caseSensitive: boolean;
  diacriticSensitive: boolean;
  /** Terms looked up in the index (and summed into the score). */
  termsForBounds: string[];
  positiveTerms: Set<string>;
  negatedTerms: Set<string>;
  positivePhrases: string[];
  negatedPhrases: string[];
};

/** Parses a `$text` operand: `$search` with words, "phrases" and -negations. */
export function parseTextQuery(operand: unknown, index: TextIndex): TextQuery {
  if (!isPlainObject(operand)) throw new MongoCommandError("BadValue", "$text needs an object");
  for (const k of Object.keys(operand)) {
    if (!["$search", "$language", "$caseSensitive", "$diacriticSensitive"].includes(k)) {
      throw new MongoCommandError("FailedToParse", `Unexpected field ${k} in $text subobject`);
    }
  }
  if (typeof operand.$search !== "string")
    throw new MongoCommandError("TypeMismatch", "$search requires a string value");
  const lang = operand.$language === undefined ? index.defaultLanguage : operand.$language;
  if (typeof lang !== "string" || !isTextLanguage(lang)) {
    throw new MongoCommandError("BadValue", `unsupported language: "${String(lang)}" for $language`);
  }
  for (const flag of ["$caseSensitive", "$diacriticSensitive"] as const) {
    if (operand[flag] !== undefined && typeof operand[flag] !== "boolean") {
      throw new MongoCommandError("TypeMismatch", `${flag} requires a boolean value`);
    }
  }
  const caseSensitive = operand.$caseSensitive === true;
  const diacriticSensitive = operand.$diacriticSensitive === true;
  const search = operand.$search;

  // Split into text runs and the delimiters '-' and '"' (whitespace separates), as MongoDB's parser does.
  let positive = "";
  let negative = "";
  const positivePhrases: string[] = [];
  const negatedPhrases: string[] = [];
  let inNegation = false;
  let inPhrase = false;
  let quoteAt = 0;
  let pos = 0;
  const isSpace = (c: string) => c === " " || c === "\n" || c === "\r" || c === "\t" || c === "\v" || c === "\f";
  const skipSpace = () => {
    const start = pos;
    while (pos < search.length && isSpace(search[pos])) pos++;
    return pos > start;
  };
  skipSpace();
  let previousWhiteSpace = true;
  while (pos < search.length) {
    const start = pos;
    const c = search[pos++];
    if (c === "-" || c === '"') {
      const hadSpace = previousWhiteSpace;
      previousWhiteSpace = skipSpace();
      if (c === "-") {
        if (!inPhrase && hadSpace) inNegation = true;
      } else if (inPhrase) {
        const phrase = search.slice(quoteAt + 1, start);
        (inNegation ? negatedPhrases : positivePhrases).push(phrase);
        inPhrase = false;
      } else {
        inPhrase = true;
        if (inNegation && hadSpace) inNegation = false;
        quoteAt = start;
      }
      continue;
    }
    while (pos < search.length && !isSpace(search[pos]) && search[pos] !== "-" && search[pos] !== '"') pos++;
    const text = search.slice(start, pos);
    const hadSpace = previousWhiteSpace;
    previousWhiteSpace = skipSpace();
    if (inPhrase && inNegation) continue;
    if (inNegation && hadSpace) inNegation = false;
    if (inNegation) negative += `${text} `;
    else positive += `${text} `;
  }

  const termsForBounds: string[] = [];
  const seen = new Set<string>();
  const positiveTerms = new Set<string>();
  const negatedTerms = new Set<string>();
  const insensitive = { filterStopWords: true, caseSensitive: false, diacriticSensitive: false };
  for (const t of tokenize(positive, lang, insensitive)) {
    if (!seen.has(t)) {
      seen.add(t);
      termsForBounds.push(t);
    }
  }
  const matchOptions = { filterStopWords: true, caseSensitive, diacriticSensitive };
  for (const t of tokenize(positive, lang, matchOptions)) positiveTerms.add(t);
  for (const t of tokenize(negative, lang, matchOptions)) negatedTerms.add(t);
  return {
    search,
    language: lang,
    caseSensitive,
    diacriticSensitive,
    termsForBounds,
    positiveTerms,
    negatedTerms,
    positivePhrases,
    negatedPhrases,
  };
}

/** A text index: term → (document id → score). One per collection, as in MongoDB. */
export class TextIndex implements CatalogIndex {
  readonly spec: IndexSpec;
  readonly weights: [string, number][];
  readonly defaultLanguage: string;
  readonly languageOverride: string;
  /** Term → id key → score; a deferred index (defer) is built the first time they are read. */
  get postings(): Map<string, Map<string, number>> {
    if (this.deferredDocs !== undefined) this.build(this.deferredDocs);
    return this.store;
  }
  private store = new Map<string, Map<string, number>>();
  private deferredDocs: Map<string, Doc> | undefined;

  /** Leaves the index to be built from `docs` the first time it is read, or by materializeAsync (a start). */
  defer(docs: Map<string, Doc>): void {
    this.store.clear();
    this.deferredDocs = docs;
  }

  /** Builds a deferred index in slices; a read meanwhile builds it at once, and this build is dropped. */
  async materializeAsync(pause: () => Promise<void>): Promise<void> {
    const docs = this.deferredDocs;
    if (docs === undefined) return;
    const into = new Map<string, Map<string, number>>();
    let n = 0;
    for (const [idKey, doc] of docs) {
      addPostings(into, idKey, this.keysOf(doc));
      if ((++n & 2047) === 0) {
        await pause();
        if (this.deferredDocs !== docs) return;
      }
    }
    if (this.deferredDocs !== docs) return;
    this.deferredDocs = undefined;
    this.store = into;
  }
  readonly unique = false;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.weights = Object.entries(spec.weights ?? {});
    this.defaultLanguage = spec.default_language ?? "english";
    this.languageOverride = spec.language_override ?? "language";
  }

  get name(): string {
    return this.spec.name;
  }

  /** The language a document is indexed in (its override field, else the default). */
  languageOf(doc: Doc): string {
    const override = doc[this.languageOverride];
    if (override === undefined) return this.defaultLanguage;
    if (typeof override !== "string") {
      throw new MongoCommandError("BadValue", "found language override field in document with non-string type");
    }
    if (!isTextLanguage(override))
      throw new MongoCommandError("BadValue", `language override unsupported: ${override}`);
    return override;
  }

  /** Every indexed string of a document with its field weight. */
  *texts(doc: Doc): Generator<[string, number]> {
    for (const [field, weight] of this.weights) {
      if (field === "$**") {
        yield* allStrings(doc, weight);
        continue;
      }
      yield* stringsAt(doc, field.split("."), 0, weight);
    }
  }

  /** Term scores of a document, by MongoDB's formula. */
  scoreDocument(doc: Doc): Map<string, number> {
    const scores = new Map<string, number>();
    const lang = this.languageOf(doc);
    for (const [raw, weight] of this.texts(doc)) {
      const terms = new Map<string, { count: number; freq: number; exp: number }>();
      let numTokens = 0;
      for (const term of tokenize(raw, lang, {
        filterStopWords: true,
        caseSensitive: false,
        diacriticSensitive: false,
      })) {
        let data = terms.get(term);
        if (!data) terms.set(term, (data = { count: 0, freq: 0, exp: 0 }));
        data.exp = data.exp ? data.exp * 2 : 1;
        data.count += 1;
        data.freq += 1 / data.exp;
        numTokens++;
      }
      for (const [term, data] of terms) {
        const coeff = (0.5 * data.count) / numTokens + 0.5;
        const adjustment = raw.length === term.length && raw.toLowerCase() === term ? 1.1 : 1;
        scores.set(term, (scores.get(term) ?? 0) + weight * data.freq * coeff * adjustment);
      }
    }
    return scores;
  }

  keysOf(doc: Doc): KeyEntry[] | null {
    const scores = this.scoreDocument(doc);
    if (scores.size === 0) return null;
    return [...scores].map(([term, score]) => ({ values: [term, score] }));
  }

  checkUnique(): void {}

  add(idKey: string, doc: Doc, keys = this.keysOf(doc)): void {
    addPostings(this.postings, idKey, keys);
  }

  remove(idKey: string, doc: Doc, keys = this.keysOf(doc)): void {
    if (!keys) return;
    for (const { values } of keys) {
      const list = this.postings.get(values[0] as string);
      if (!list) continue;
      list.delete(idKey);
      if (list.size === 0) this.postings.delete(values[0] as string);
    }
  }

  clear(): void {
    this.deferredDocs = undefined;
    this.store.clear();
  }

  build(docs: Map<string, Doc>): void {
    this.clear();
    for (const [idKey, doc] of docs) this.add(idKey, doc);
  }

  /** No recorded order for a text index: always built from the documents (false). */
  async buildAsync(docs: Map<string, Doc>, _ns: string, pause: () => Promise<void>): Promise<boolean> {
    this.clear();
    let n = 0;
    for (const [idKey, doc] of docs) {
      this.add(idKey, doc);
      if ((++n & 2047) === 0) await pause();
    }
    return false;
  }

  /** Documents holding any of the terms, with the summed score (MongoDB's TEXT_OR). */
  lookup(terms: string[]): { scores: Map<string, number>; keysExamined: number } {
    const scores = new Map<string, number>();
    let keysExamined = 0;
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      for (const [id, score] of list) {
        keysExamined++;
        scores.set(id, (scores.get(id) ?? 0) + score);
      }
    }
    return { scores, keysExamined };
  }

  /** MongoDB's TEXT_MATCH: sensitive positive terms, negated terms and phrases. */
  matches(doc: Doc, query: TextQuery): boolean {
    const lang = this.languageOf(doc);
    const sensitive = query.caseSensitive || query.diacriticSensitive;
    const options = {
      filterStopWords: false,
      caseSensitive: query.caseSensitive,
      diacriticSensitive: query.diacriticSensitive,
    };
    const texts = [...this.texts(doc)].map(([raw]) => raw);
    if (sensitive) {
      let found = false;
      for (const raw of texts) {
        if (tokenize(raw, lang, options).some((t) => query.positiveTerms.has(t))) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    if (query.negatedTerms.size > 0) {
      for (const raw of texts) if (tokenize(raw, lang, options).some((t) => query.negatedTerms.has(t))) return false;
    }
    const phraseIn = (phrase: string) => {
      const needle = foldForPhrase(phrase, query.caseSensitive, query.diacriticSensitive);
      return texts.some((raw) => foldForPhrase(raw, query.caseSensitive, query.diacriticSensitive).includes(needle));
    };
    for (const phrase of query.positivePhrases) if (!phraseIn(phrase)) return false;
    for (const phrase of query.negatedPhrases) if (phraseIn(phrase)) return false;
    return true;
  }
}

function* stringsAt(value: unknown, parts: string[], i: number, weight: number): Generator<[string, number]> {
  if (i === parts.length) {
    if (typeof value === "string") yield [value, weight];
    else if (Array.isArray(value)) for (const v of value) if (typeof v === "string") yield [v, weight];
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) yield* stringsAt(v, parts, i, weight);
    return;
  }
  if (isPlainObject(value)) yield* stringsAt(value[parts[i]], parts, i + 1, weight);
}

function* allStrings(value: unknown, weight: number): Generator<[string, number]> {
  if (typeof value === "string") yield [value, weight];
  else if (Array.isArray(value)) for (const v of value) yield* allStrings(v, weight);
  else if (isPlainObject(value)) for (const v of Object.values(value)) yield* allStrings(v, weight);
}

/**
 * MongoDB's normal form of a text index spec: key `{ _fts: "text", _ftsx: 1 }` (with the other
 * fields before or after), weights per field (1 unless given), default_language,
 * language_override and textIndexVersion 3. The default name comes from the original key.
 */
export function normaliseTextIndexSpec(raw: Doc): IndexSpec {
  const rawKey = raw.key as Doc;
  const entries = Object.entries(rawKey);
  const key: Record<string, number | string> = {};
  const weights: Record<string, number> = {};
  let textSeen = false;
  let textDone = false;
  for (const [field, dir] of entries) {
    if (dir === "text") {
      if (textDone) throw new MongoCommandError("CannotCreateIndex", "'text' fields in index must all be adjacent");
      if (!textSeen) {
        key._fts = "text";
        key._ftsx = 1;
        textSeen = true;
      }
      weights[field] = 1;
    } else if (dir === 1 || dir === -1) {
      if (!textSeen) {
        throw new MongoCommandError(
          "CannotCreateIndex",
          `a compound text index with fields before the text fields ('${field}') is not supported by the embedded server`,
        );
      }
      textDone = true;
      key[field] = dir;
    } else {
      throw new MongoCommandError(
        "CannotCreateIndex",
        `Index type '${String(dir)}' on '${field}' is not supported by the embedded server`,
      );
    }
  }
  if (raw.weights !== undefined) {
    if (raw.weights === "$**") weights["$**"] = 1;
    else if (!isPlainObject(raw.weights))
      throw new MongoCommandError("CannotCreateIndex", "text index option 'weights' must be an object");
    else {
      for (const [field, w] of Object.entries(raw.weights)) {
        if (typeof w !== "number")
          throw new MongoCommandError("CannotCreateIndex", "weight for text index needs numeric type");
        const weight = Math.trunc(w);
        if (weight <= 0 || weight >= 1_000_000_000) {
          throw new MongoCommandError(
            "CannotCreateIndex",
            `text index weight must be in the exclusive interval (0,${1_000_000_000}) but found: ${weight}`,
          );
        }
        weights[field] = weight;
      }
    }
  }
  const defaultLanguage = raw.default_language === undefined ? "english" : raw.default_language;
  if (typeof defaultLanguage !== "string")
    throw new MongoCommandError("CannotCreateIndex", "default_language needs a string type");
  if (!isTextLanguage(defaultLanguage))
    throw new MongoCommandError("CannotCreateIndex", "default_language is not valid");
  const languageOverride = raw.language_override === undefined ? "language" : raw.language_override;
  if (typeof languageOverride !== "string")
    throw new MongoCommandError("CannotCreateIndex", "language_override must be a string");
  const name =
    typeof raw.name === "string" && raw.name ? raw.name : entries.map(([f, d]) => `${f}_${String(d)}`).join("_");
  const sorted: Record<string, number> = {};
  for (const f of Object.keys(weights).sort()) sorted[f] = weights[f];
  return {
    v: 2,
    key,
    name,
    weights: sorted,
    default_language: defaultLanguage,
    language_override: languageOverride,
    textIndexVersion: 3,
  };
}

export function isTextSpec(spec: IndexSpec): boolean {
  return spec.key._fts === "text";
}

/** A stable label for the terms of a query (explain, profiler). */
export function describeTextQuery(q: TextQuery): Doc {
  return {
    terms: [...q.positiveTerms].sort(),
    negatedTerms: [...q.negatedTerms].sort(),
    phrases: q.positivePhrases,
    negatedPhrases: q.negatedPhrases,
  };
}

export { keyOf };

/** Adds a document's terms (TextIndex.keysOf) to postings. */
function addPostings(postings: Map<string, Map<string, number>>, idKey: string, keys: KeyEntry[] | null): void {
  if (!keys) return;
  for (const { values } of keys) {
    const term = values[0] as string;
    let list = postings.get(term);
    if (!list) postings.set(term, (list = new Map()));
    list.set(idKey, values[1] as number);
  }
}
