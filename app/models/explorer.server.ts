import type { ObjectId } from "mongodb";
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
  /** Lower-cased, accent-stripped title + body: what the search matches against. */
  searchText: string;
};

/**
 * The normal form of `searchText` and of search terms: lower case, no accents, punctuation turned
 * into spaces (the spec strips punctuation from the search), single spaces. Applying it to both
 * sides makes word and exact-phrase matching agree.
 */
export function normalizeSearchText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

export const indexes: IndexDeclaration[] = [
  { collection: EXPLORER_DOCUMENTS, key: { date: -1, _id: -1 }, options: { name: "date_desc" } },
];
