import type { Filter, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { readPageOrLast } from "~/domain/pagination";
import { normalizeSearchText, phrasePattern, searchWordsOf, type SearchQuery } from "~/domain/search";
import type { IndexDeclaration } from "./indexes";

/** The explorer's searchable corpus of company documents (pt-BR). */

export const EXPLORER_DOCUMENTS = "explorer_documents";

export type ExplorerDocument = {
  _id?: ObjectId;
  title: string;
  body: string;
  source: string;
  category: string;
  date: Date;
  /** Lower-cased, accent-stripped title + body: what an exact phrase is matched against. */
  searchText: string;
  /** The distinct words of `searchText`: what the word search looks up, through an index. */
  words: string[];
};

export const EXPLORER_PAGE_SIZES = [20, 40] as const;
export type ExplorerPageSize = (typeof EXPLORER_PAGE_SIZES)[number];

export const indexes: IndexDeclaration[] = [
  { collection: EXPLORER_DOCUMENTS, key: { date: -1, _id: -1 }, options: { name: "date_desc" } },
  { collection: EXPLORER_DOCUMENTS, key: { words: 1, date: -1, _id: -1 }, options: { name: "words_date" } },
];

/** The fields a document is searched by, from its title and text. */
export function explorerSearchFields(title: string, body: string): Pick<ExplorerDocument, "searchText" | "words"> {
  const text = `${title} ${body}`;
  return { searchText: normalizeSearchText(text), words: searchWordsOf(text) };
}

export type ExplorerHit = { id: string; title: string; body: string; source: string; category: string; date: Date };
export type ExplorerPage = { items: ExplorerHit[]; total: number; page: number; pageSize: ExplorerPageSize };

/**
 * One page of the documents that hold every searched word (or, for an exact phrase, the words in that
 * order), newest first, with the total. A page past the end gives the last page. The filter is built
 * from normal-form words only ([a-z0-9]), never from the request as such.
 */
export async function searchExplorer(query: SearchQuery, options: { page: number; pageSize: ExplorerPageSize }): Promise<ExplorerPage> {
  const { pageSize } = options;
  const filter: Filter<ExplorerDocument> = { words: { $all: [...new Set(query.words)] } };
  if (query.exact && query.words.length > 1) filter.searchText = { $regex: phrasePattern(query) };
  const collection = (await getDb()).collection<ExplorerDocument>(EXPLORER_DOCUMENTS);
  const readPage = (page: number) =>
    collection
      .find(filter, { projection: { title: 1, body: 1, source: 1, category: 1, date: 1 } })
      .sort({ date: -1, _id: -1 })
      .skip((page - 1) * pageSize)
      .limit(pageSize)
      .toArray();
  const { rows, total, page } = await readPageOrLast(options.page, pageSize, readPage, () => collection.countDocuments(filter));
  return {
    items: rows.map((d) => ({ id: String(d._id), title: d.title, body: d.body, source: d.source, category: d.category, date: d.date })),
    total,
    page,
    pageSize,
  };
}
