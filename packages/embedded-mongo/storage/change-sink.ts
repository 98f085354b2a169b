import type { IndexSpec } from "../index-spec";
import type { Doc } from "../values";

/** Receives every change, in order, with the function that undoes it; the durable journal implements it. */
export interface ChangeSink {
  /** `raw`, when given, is the document's own BSON (an insert's bytes as they arrived), written as it is. */
  putDocument(ns: string, doc: Doc, undo: () => void, raw?: Buffer): void;
  /**
   * Every document of one insert command, in one change: `documents` is the command's `documents` array in the
   * bytes it arrived in, and each of its documents was stored as decoded from them (`_id` included, wherever it
   * lay). Its replay puts each, `_id` first.
   */
  putDocuments?(ns: string, documents: Buffer, undo: () => void): void;
  deleteDocument(ns: string, id: unknown, undo: () => void): void;
  createCollection(ns: string, options: Doc, undo: () => void): void;
  dropCollection(ns: string, undo: () => void): void;
  createIndex(ns: string, spec: IndexSpec, undo: () => void): void;
  dropIndex(ns: string, name: string, undo: () => void): void;
  dropDatabase(db: string, undo: () => void): void;
  /** How many times writing to disk failed (and the unwritten changes were undone); a yielding write checks it. */
  readonly failures?: number;
  readonly lastFailure?: Error;
}
