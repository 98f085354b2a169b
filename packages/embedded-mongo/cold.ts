/**
 * Cold documents: a start makes a snapshot's document an object holding only its `_id` (read from its bytes) and
 * keeps where its bytes lie; the rest of its fields are decoded into the same object the first time anything reads
 * it (`warm`), or by the background pass that warms every cold document after the load (`warmAll`). Nothing else
 * changes: the object is the stored document, indexes that keep documents hold it, and once warm it is exactly what
 * a decode would have made (the same keys in the same order).
 *
 * Where a stored document can be reached, it is warmed first: the collection's `docs` map (DocMap, storage.ts) and
 * an index entry's document (`entryDoc`). An index reads a cold document's key values from its bytes instead
 * (`readColdFields`: Index.expandDoc, Index.entryInto). While no document is cold (`coldState.count === 0`) each of
 * them costs one comparison.
 */
import { decodeDocumentInto, idValueAt, readFieldsInto } from "./bson-decode";
import type { Doc } from "./values";

/** Each cold document → its slot in `bytes`/`starts`. */
const slots = new Map<Doc, number>();
/** Per slot: the buffer holding the document's bytes, and where the document starts in it. */
let bytes: (Buffer | undefined)[] = [];
let starts: number[] = [];
/** Per slot: who made it (a data directory's journal), so that closing it forgets what it left cold. */
let owners: (object | undefined)[] = [];

/** How many documents are cold now (read on every hot path: a property load, not Map#size). */
export const coldState = { count: 0 };

/**
 * A stored document for the BSON document at buf[start..]: the object with only its `_id` (decoded from the bytes),
 * registered as cold; undefined when its first field is not an `_id` of a type read here (the caller decodes it).
 */
export function coldDocument(buf: Buffer, start: number, owner: object): Doc | undefined {
  const id = idValueAt(buf, start);
  if (id === undefined) return undefined;
  const doc: Doc = {};
  doc._id = id;
  slots.set(doc, bytes.length);
  bytes.push(buf);
  starts.push(start);
  owners.push(owner);
  coldState.count++;
  return doc;
}

/** Decodes a cold document's fields into it (a document that is not cold is left alone). */
export function warm(doc: Doc): void {
  const slot = slots.get(doc);
  if (slot === undefined) return;
  const buf = bytes[slot]!;
  const start = starts[slot];
  decodeDocumentInto(buf, start, buf.readInt32LE(start), doc);
  forgetSlot(doc, slot);
}

function forgetSlot(doc: Doc, slot: number): void {
  slots.delete(doc);
  bytes[slot] = undefined;
  owners[slot] = undefined;
  if (--coldState.count === 0) {
    // The last one: let the buffers go.
    bytes = [];
    starts = [];
    owners = [];
  }
}

/** Forgets the documents `owner` left cold (its store is closed: nothing reads them any more). */
export function forgetCold(owner: object): void {
  for (const [doc, slot] of slots) if (owners[slot] === owner) forgetSlot(doc, slot);
}

/**
 * An index's reading of a document's key fields (Index.expandDoc): a cold document's fields are read from its bytes
 * into out[at..] without warming it (an index build reads the first entry of every leaf; a search reads a few), and
 * true is returned; false for a document that is not cold, or one warmed here because a field holds no scalar.
 */
export function readColdFields(doc: Doc, names: readonly string[], out: unknown[], at = 0): boolean {
  const slot = slots.get(doc);
  if (slot === undefined) return false;
  if (readFieldsInto(bytes[slot]!, starts[slot], names, out, at)) return true;
  warm(doc);
  return false;
}

/**
 * Warms every document still cold, in the order they were made (file order: each buffer read once, front to
 * back), calling `pause` between slices; `stopped` ends it early.
 */
export async function warmAll(pause: () => Promise<void>, stopped: () => boolean): Promise<void> {
  let k = 0;
  // One iterator over the whole pass: a Map's iterator skips what was deleted meanwhile (warmed by a reader).
  for (const doc of slots.keys()) {
    warm(doc);
    if ((++k & 1_023) === 0) {
      await pause();
      if (stopped()) return;
    }
  }
}

/** Tests: the background pass can be held back, to see a store that is still cold. */
let warmUpHeld = false;
export function holdWarmUp(held: boolean): void {
  warmUpHeld = held;
}
export function warmUpIsHeld(): boolean {
  return warmUpHeld;
}
