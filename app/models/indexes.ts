import type { CreateIndexesOptions, IndexSpecification } from "mongodb";

/** An index a model module declares; `npm run db:indexes` applies them all. */
export type IndexDeclaration = {
  collection: string;
  key: IndexSpecification;
  options?: CreateIndexesOptions;
};
