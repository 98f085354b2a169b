import crypto from "node:crypto";
import { type AnyBulkWriteOperation, type Collection, type Db, type Filter, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import {
  FACETS,
  type Facet,
  type FacetFilters,
  phrasePattern,
  type QueryWord,
  type SearchQuery,
  type Segment,
} from "~/models/explorer-search";
import {
  type DocumentSearchFields,
  documentSearchFields,
  fold,
  foldedStem,
  highlight,
  MAX_FORMS,
  type Matcher,
  snippet,
  type VocabularyEntry,
  vocabularyOf,
  wordKey,
} from "~/models/explorer-search-terms.server";
import { byPtBr } from "~/shared/collation";
import { readPageOrLast } from "~/shared/pagination";
import { noteDataChanged } from "./dashboard-cache.server";
import { recordedFileClass } from "./files.server";
import type { IndexDeclaration } from "./indexes";

/**
 * The explorer's corpus of company documents (pt-BR) and its search: MongoDB's `$text` over title and
 * body (Portuguese stemming, accents and case folded, the title weighted) ranks the documents; every query word
 * must also be found (AND) through the documents' word keys; the last word also matches longer words that start
 * with it, and a word also finds the other forms of its key (singular/plural), both through the vocabulary
 * (`explorer_terms`), an index range and an index lookup. Only real MongoDB operators, each served by an index.
 */

export const EXPLORER_DOCUMENTS = "explorer_documents";
/** The vocabulary: one document per normal-form word (its _id), with its key, spellings and document count. */
export const EXPLORER_TERMS = "explorer_terms";

/** The stored file of an uploaded document: downloaded from the document page. */
export type ExplorerDocumentFile = { bucket: string; key: string; name: string };

export type ExplorerDocument = {
  _id?: ObjectId;
  title: string;
  body: string;
  source: string;
  category: string;
  date: Date;
  /** Uploaded documents only (seeded ones have none): the file as uploaded, its upload record and uploader. */
  file?: ExplorerDocumentFile;
  originalName?: string;
  sourceFileId?: ObjectId;
  user?: string;
} & DocumentSearchFields;

export const EXPLORER_PAGE_SIZES = [20, 40] as const;
export type ExplorerPageSize = (typeof EXPLORER_PAGE_SIZES)[number];

/** The title weighs this many times the body in the ranking. */
export const TITLE_WEIGHT = 10;
/** The most words the last word is widened to (the first in alphabetical order). */
export const MAX_PREFIX_EXPANSIONS = 50;
/** The most vocabulary entries one query reads for other forms of its words. */
const MAX_KEY_FORMS = 400;

export const indexes: IndexDeclaration[] = [
  {
    collection: EXPLORER_DOCUMENTS,
    key: { title: "text", body: "text" },
    options: { name: "title_body_text", weights: { title: TITLE_WEIGHT, body: 1 }, default_language: "portuguese" },
  },
  { collection: EXPLORER_TERMS, key: { key: 1 }, options: { name: "key" } },
];

type NewDocument = Pick<ExplorerDocument, "title" | "body" | "source" | "category" | "date"> & { _id?: ObjectId };

/** A document with its search fields. */
export function explorerDocument(input: NewDocument): ExplorerDocument {
  return { ...input, ...documentSearchFields(input.title, input.body) };
}

/** The vocabulary of a set of documents (the seed writes it whole). */
export function explorerVocabulary(docs: Iterable<NewDocument>): VocabularyEntry[] {
  return vocabularyOf(docs);
}

/** Adds documents and their words to the vocabulary (in the portal's database, or in `db`). */
export async function addExplorerDocuments(inputs: readonly NewDocument[], db?: Db): Promise<void> {
  if (inputs.length === 0) return;
  db ??= await getDb();
  await db.collection<ExplorerDocument>(EXPLORER_DOCUMENTS).insertMany(inputs.map(explorerDocument));
  const updates: AnyBulkWriteOperation<VocabularyEntry>[] = explorerVocabulary(inputs).map((entry) => ({
    updateOne: {
      filter: { _id: entry._id },
      update: {
        $setOnInsert: { key: entry.key },
        $inc: { n: entry.n },
        $addToSet: { forms: { $each: entry.forms.slice(0, MAX_FORMS) } },
      },
      upsert: true,
    },
  }));
  await db.collection<VocabularyEntry>(EXPLORER_TERMS).bulkWrite(updates, { ordered: false });
  await noteDataChanged([EXPLORER_DOCUMENTS], db);
  recentResults.clear();
}

/**
 * The _id of the uploaded document of a file name: derived from the name, so an upload under a name that is
 * already indexed replaces that document in place (its address /ij/explorer/{id} stays valid) and two workers
 * indexing the same name at once still write one document.
 */
export function uploadedDocumentId(originalName: string): ObjectId {
  return new ObjectId(
    crypto.createHash("sha256").update(`explorer-upload\u0000${originalName}`).digest().subarray(0, 12),
  );
}

export type UploadedDocument = NewDocument & {
  originalName: string;
  file: ExplorerDocumentFile;
  sourceFileId: ObjectId;
  user: string;
};

/** The uploaded file is not classified plain (files.fields.ts FileDataClass): its text is not indexed. */
export class ExplorerSourceNotPlainError extends Error {
  constructor() {
    super("an explorer document's file must be classified plain before it is indexed");
    this.name = "ExplorerSourceNotPlainError";
  }
}

/**
 * Indexes an uploaded document, upserted by its file name: a new name adds a document, a known one
 * replaces it (same _id). The vocabulary gains the new text's words and loses the replaced text's (a word no
 * document holds any more is removed, so the last word's prefix expansion never offers it). Only a file classified
 * plain is indexed: every explorer reader sees the text, and not every one may read HR data.
 */
export async function saveUploadedExplorerDocument(
  input: UploadedDocument,
  db?: Db,
): Promise<{ id: ObjectId; replaced: boolean; words: number }> {
  db ??= await getDb();
  if ((await recordedFileClass(input.sourceFileId, db))?.dataClass !== "plain") throw new ExplorerSourceNotPlainError();
  const _id = uploadedDocumentId(input.originalName);
  const collection = db.collection<ExplorerDocument>(EXPLORER_DOCUMENTS);
  const previous = await collection.findOne({ _id }, { projection: { title: 1, body: 1 } });
  const doc = explorerDocument({ ...input, _id });
  await collection.replaceOne({ _id }, doc, { upsert: true });
  const added = vocabularyOf([input]);
  const removed = previous ? vocabularyOf([previous]) : [];
  const updates: AnyBulkWriteOperation<VocabularyEntry>[] = [
    ...added.map((entry) => ({
      updateOne: {
        filter: { _id: entry._id },
        update: {
          $setOnInsert: { key: entry.key },
          $inc: { n: entry.n },
          $addToSet: { forms: { $each: entry.forms.slice(0, MAX_FORMS) } },
        },
        upsert: true,
      },
    })),
    ...removed.map((entry) => ({ updateOne: { filter: { _id: entry._id }, update: { $inc: { n: -entry.n } } } })),
  ];
  const terms = db.collection<VocabularyEntry>(EXPLORER_TERMS);
  if (updates.length > 0) await terms.bulkWrite(updates, { ordered: false });
  if (removed.length > 0) await terms.deleteMany({ _id: { $in: removed.map((e) => e._id) }, n: { $lte: 0 } });
  await noteDataChanged([EXPLORER_DOCUMENTS], db);
  recentResults.clear();
  return { id: _id, replaced: previous !== null, words: doc.words.length };
}

/** The stored file of an uploaded document, by the document's id; null for seeded documents and unknown ids. */
export async function findExplorerDocumentFile(id: string): Promise<ExplorerDocumentFile | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  const doc = await (await getDb())
    .collection<ExplorerDocument>(EXPLORER_DOCUMENTS)
    .findOne({ _id: new ObjectId(id) }, { projection: { file: 1 } });
  const file = doc?.file;
  return file && typeof file.bucket === "string" && typeof file.key === "string" && typeof file.name === "string"
    ? { bucket: file.bucket, key: file.key, name: file.name }
    : null;
}

// ---------------------------------------------------------------------------------------------
// Planning a search

type SearchPlan = {
  /** The `$search` string: the words as typed and the other spellings and forms the vocabulary knows. */
  text: string;
  /** One list of keys per searched word: a document must hold one key of each list. */
  groups: string[][];
  matcher: Matcher;
  /** Words the text index ignores (stop words), as typed. */
  ignored: string[];
};

/** Whether the text index ignores a word (as typed): MongoDB's own answer, remembered per word. */
const ignoredByIndex = new Map<string, boolean>();

function findKey(value: unknown, key: string): unknown {
  if (!value || typeof value !== "object") return undefined;
  if (key in value) return (value as Record<string, unknown>)[key];
  for (const child of Object.values(value)) {
    const found = findKey(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The words the text index drops (its stop words), asked of the server itself: the query planner's
 * `parsedTextQuery` lists the terms it searches; a word whose stem is not among them was ignored.
 */
async function wordsIgnoredByIndex(collection: Collection<ExplorerDocument>, words: QueryWord[]): Promise<Set<string>> {
  const unknown = [...new Set(words.map((w) => w.typed))].filter((w) => !ignoredByIndex.has(w));
  if (unknown.length > 0) {
    const explained = await collection
      .find({ $text: { $search: unknown.join(" ") } })
      .explain("queryPlanner")
      .catch(() => null);
    const parsed = findKey(explained, "parsedTextQuery") as { terms?: unknown } | undefined;
    if (parsed && Array.isArray(parsed.terms)) {
      const terms = new Set(parsed.terms.map((t) => fold(String(t))));
      if (ignoredByIndex.size > 50_000) ignoredByIndex.clear();
      // Stemmed with or without its accents (whichever the server does first), the word is among the terms.
      for (const word of unknown)
        ignoredByIndex.set(word, !terms.has(foldedStem(word)) && !terms.has(foldedStem(fold(word))));
    }
  }
  return new Set(words.filter((w) => ignoredByIndex.get(w.typed) === true).map((w) => w.typed));
}

async function planSearch(query: SearchQuery): Promise<SearchPlan> {
  const db = await getDb();
  const terms = db.collection<VocabularyEntry>(EXPLORER_TERMS);
  const last = query.words[query.words.length - 1];
  const prefix = query.prefix ? last.normal : null;
  const keys = query.words.map((w) => wordKey(w.typed));
  const [sameWords, sameKeys, longer, ignored] = await Promise.all([
    // How the words are spelled in the documents (a query typed without accents finds the accented word).
    terms.find({ _id: { $in: query.words.map((w) => w.normal) } }, { projection: { forms: 1 } }).toArray(),
    // Other forms of the same key (singular and plural of "-ção" words).
    query.exact
      ? []
      : terms
          .find({ key: { $in: keys } }, { projection: { forms: 1 } })
          .limit(MAX_KEY_FORMS)
          .toArray(),
    // Longer words starting with the last one: an index range on the normal form.
    prefix
      ? terms
          .find({ _id: { $gte: prefix, $lt: `${prefix}\uffff` } }, { projection: { key: 1, forms: 1 } })
          .sort({ _id: 1 })
          .limit(MAX_PREFIX_EXPANSIONS)
          .toArray()
      : [],
    wordsIgnoredByIndex(db.collection<ExplorerDocument>(EXPLORER_DOCUMENTS), query.words),
  ]);
  const spellings = new Set(query.words.map((w) => w.typed));
  for (const entry of [...sameWords, ...sameKeys, ...longer]) for (const form of entry.forms ?? []) spellings.add(form);
  const groups = query.words.flatMap((word, i) => {
    if (ignored.has(word.typed)) return [];
    const group = new Set([keys[i]]);
    if (prefix && i === query.words.length - 1) for (const entry of longer) group.add(entry.key);
    return [[...group]];
  });
  return {
    text: [...spellings].join(" "),
    groups: query.exact ? [] : groups,
    matcher: { keys: new Set(groups.flat()), prefix, phrase: query.exact ? query.words.map((w) => w.normal) : null },
    ignored: [...ignored],
  };
}

function searchFilter(query: SearchQuery, plan: SearchPlan): Filter<ExplorerDocument> {
  const filter: Filter<ExplorerDocument> = { $text: { $search: plan.text } };
  if (plan.groups.length > 0) filter.$and = plan.groups.map((group) => ({ stems: { $in: group } }));
  if (query.exact) filter.searchText = { $regex: phrasePattern(query) };
  return filter;
}

function yearRange(year: string) {
  const y = Number(year);
  return { $gte: new Date(Date.UTC(y, 0, 1)), $lt: new Date(Date.UTC(y + 1, 0, 1)) };
}

function facetFilter(filters: FacetFilters, except?: Facet): Filter<ExplorerDocument> {
  const filter: Filter<ExplorerDocument> = {};
  if (filters.source !== undefined && except !== "source") filter.source = filters.source;
  if (filters.category !== undefined && except !== "category") filter.category = filters.category;
  if (filters.year !== undefined && except !== "year") filter.date = yearRange(filters.year);
  return filter;
}

// ---------------------------------------------------------------------------------------------
// Facets: one aggregation per search, counted per (source, category, year)

type FacetGroup = { source: string; category: string; year: string; n: number };
export type FacetValue = { value: string; count: number };
export type FacetCounts = Record<Facet, FacetValue[]>;

function keep(group: FacetGroup, filters: FacetFilters, except?: Facet): boolean {
  return FACETS.every((facet) => facet === except || filters[facet] === undefined || group[facet] === filters[facet]);
}

/** Each facet's values with their counts under the other facets' selections (so alternatives stay visible). */
function facetCounts(groups: FacetGroup[], filters: FacetFilters): FacetCounts {
  const counts = {} as FacetCounts;
  for (const facet of FACETS) {
    const byValue = new Map<string, number>();
    for (const group of groups)
      if (keep(group, filters, facet)) byValue.set(group[facet], (byValue.get(group[facet]) ?? 0) + group.n);
    const values = [...byValue].map(([value, count]) => ({ value, count }));
    values.sort(
      facet === "year"
        ? (a, b) => b.value.localeCompare(a.value)
        : (a, b) => b.count - a.count || byPtBr(a.value, b.value),
    );
    counts[facet] = values;
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Search

export type ExplorerHit = {
  id: string;
  title: Segment[];
  snippet: Segment[];
  source: string;
  category: string;
  date: Date;
};
export type ExplorerPage = {
  items: ExplorerHit[];
  total: number;
  page: number;
  pageSize: ExplorerPageSize;
  facets: FacetCounts;
  /** Query words the text index ignores (too common), as typed. */
  ignored: string[];
};

/**
 * One page of the documents that hold every searched word (or, for an exact phrase, the words in that order),
 * most relevant first (MongoDB's text score: title weighted; then newest, then _id, so equal scores keep one
 * order), narrowed by the facet selections; the facet counts; the ignored words. A page past the end gives the
 * last page.
 */
export function searchExplorer(
  query: SearchQuery,
  options: { page: number; pageSize: ExplorerPageSize; filters?: FacetFilters },
): Promise<ExplorerPage> {
  const key = JSON.stringify([
    query.words.map((w) => w.typed),
    query.exact,
    query.prefix,
    options.filters ?? {},
    options.page,
    options.pageSize,
  ]);
  const now = Date.now();
  const cached = recentResults.get(key);
  if (cached && now - cached.at < RESULTS_TTL_MS) return cached.result;
  if (recentResults.size >= MAX_RECENT_RESULTS) recentResults.delete(recentResults.keys().next().value as string);
  const result = runSearch(query, options);
  recentResults.set(key, { at: now, result });
  result.catch(() => recentResults.delete(key));
  return result;
}

/**
 * Recent result pages, by query, facets and page: the same search within RESULTS_TTL_MS (many people, or one
 * paging back and forth) is answered once, and searches running at the same time share one database round.
 * New documents clear it (`addExplorerDocuments`); another process's additions show within the TTL.
 */
const recentResults = new Map<string, { at: number; result: Promise<ExplorerPage> }>();
const RESULTS_TTL_MS = 30_000;
const MAX_RECENT_RESULTS = 500;

async function runSearch(
  query: SearchQuery,
  options: { page: number; pageSize: ExplorerPageSize; filters?: FacetFilters },
): Promise<ExplorerPage> {
  const { pageSize } = options;
  const filters = options.filters ?? {};
  const plan = await planSearch(query);
  const collection = (await getDb()).collection<ExplorerDocument>(EXPLORER_DOCUMENTS);
  const filter = searchFilter(query, plan);
  const groups = collection
    .aggregate<{ _id: { source: unknown; category: unknown; year: unknown }; n: number }>([
      { $match: filter },
      { $group: { _id: { source: "$source", category: "$category", year: { $year: "$date" } }, n: { $sum: 1 } } },
    ])
    .toArray()
    .then((rows) =>
      rows.map((r) => ({
        source: String(r._id.source ?? ""),
        category: String(r._id.category ?? ""),
        year: String(r._id.year ?? ""),
        n: r.n,
      })),
    );
  const pageFilter = { ...filter, ...facetFilter(filters) };
  const readPage = (page: number) =>
    collection
      .find(pageFilter, { projection: { title: 1, body: 1, source: 1, category: 1, date: 1 } })
      .sort({ score: { $meta: "textScore" }, date: -1, _id: -1 })
      .skip((page - 1) * pageSize)
      .limit(pageSize)
      .toArray();
  const countSelected = async () => (await groups).filter((g) => keep(g, filters)).reduce((sum, g) => sum + g.n, 0);
  const { rows, total, page } = await readPageOrLast(options.page, pageSize, readPage, countSelected);
  return {
    items: rows.map((d) => ({
      id: String(d._id),
      title: highlight(d.title, plan.matcher),
      snippet: snippet(d.body, plan.matcher),
      source: d.source,
      category: d.category,
      date: d.date,
    })),
    total,
    page,
    pageSize,
    facets: facetCounts(await groups, filters),
    ignored: plan.ignored,
  };
}

export type ExplorerDocumentView = {
  id: string;
  title: Segment[];
  body: Segment[];
  source: string;
  category: string;
  date: Date;
  /** The uploaded file's name (it can be downloaded); null for documents without a stored file. */
  fileName: string | null;
};

/** One document, whole, with the query's words marked (no query: nothing marked); null when there is none. */
export async function getExplorerDocument(id: string, query: SearchQuery | null): Promise<ExplorerDocumentView | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  const doc = await (await getDb())
    .collection<ExplorerDocument>(EXPLORER_DOCUMENTS)
    .findOne(
      { _id: new ObjectId(id) },
      { projection: { title: 1, body: 1, source: 1, category: 1, date: 1, "file.name": 1 } },
    );
  if (!doc) return null;
  const matcher: Matcher = query ? (await planSearch(query)).matcher : { keys: new Set(), prefix: null, phrase: null };
  return {
    id,
    title: highlight(doc.title, matcher),
    body: highlight(doc.body, matcher),
    source: doc.source,
    category: doc.category,
    date: doc.date,
    fileName: typeof doc.file?.name === "string" ? doc.file.name : null,
  };
}
