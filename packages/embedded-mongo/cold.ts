/**
 * Cold documents: a start makes a snapshot's document an object holding only its `_id` (read from its bytes) and
 * keeps where its bytes lie in the snapshot file; the rest of its fields are decoded into the same object the first
 * time anything reads it (`warm`), or by the background pass that warms every cold document after the load
 * (`warmAll`). Nothing else changes: the object is the stored document, indexes that keep documents hold it, and once
 * warm it is exactly what a decode would have made (the same keys in the same order).
 *
 * The bytes are read back from the file, not kept: memory a process touches for the first time is its dearest part
 * (docs/performance.md, "What the memory figures mean"), and the file is in the page cache after the start read it.
 * A snapshot file is never written in place (a new one is renamed over it), so the descriptor opened at the start
 * (`openColdFile`) reads the same bytes until the last of its cold documents is warmed or its store is closed.
 *
 * Where a stored document can be reached, it is warmed first: the collection's `docs` map (DocMap, storage/doc-map.ts) and
 * an index entry's document (`entryDoc`). An index reads a cold document's key values from its bytes instead
 * (`readColdFields`: Index.expandDoc, Index.entryInto). While no document is cold (`coldState.count === 0`) each of
 * them costs one comparison.
 */
import fs from "node:fs";
import { decodeDocumentInto, idValueAt, readFieldsInto } from "./bson-decode";
import type { Doc } from "./values";

/** A snapshot file cold documents are read back from, open while the start reads it or any of them is cold. */
export interface ColdFile {
  fd: number;
  /** Who made it (a data directory's journal): closing that store forgets what it left cold. */
  owner: object;
  /** Its documents still cold, plus one while the start still makes more (`releaseColdFile` ends that one). */
  holds: number;
}

/**
 * A cold document's slot: the one property it holds besides `_id`, and the last one added, so that deleting it when
 * the document is warmed gives the object back the hidden class it had before it ({_id}), the one a decode starts
 * from. A symbol: no key listing shows it (and every reader warms a document before reading it).
 */
const SLOT = Symbol("cold slot");
type ColdDoc = Doc & { [SLOT]?: number };
/** Per slot: the cold document (undefined once warm), the file holding its bytes, and where they start in it. */
let docs: (ColdDoc | undefined)[] = [];
let files: (ColdFile | undefined)[] = [];
let positions: number[] = [];

/** How many documents are cold now (read on every hot path: a property load, not Map#size). */
export const coldState = { count: 0 };

/** Opens the snapshot at `path` for the cold documents a start makes from it. */
export function openColdFile(path: string, owner: object): ColdFile {
  return { fd: fs.openSync(path, "r"), owner, holds: 1 };
}

/**
 * The start makes no more cold documents from `file`: it closes once the last of them is warm (at once when none
 * is cold). Until then readers warming every cold document made so far do not close it.
 */
export function releaseColdFile(file: ColdFile): void {
  if (--file.holds === 0) closeFile(file);
}

/**
 * A stored document for the BSON document at buf[start..], which lies at `position` in `file`: the object with only
 * its `_id` (decoded from the bytes), registered as cold; undefined when its first field is not an `_id` of a type
 * read here (the caller decodes it).
 */
export function coldDocument(buf: Buffer, start: number, file: ColdFile, position: number): Doc | undefined {
  const id = idValueAt(buf, start);
  if (id === undefined) return undefined;
  const doc: ColdDoc = {};
  doc._id = id;
  doc[SLOT] = docs.length;
  docs.push(doc);
  files.push(file);
  positions.push(position);
  file.holds++;
  coldState.count++;
  return doc;
}

/** Decodes a cold document's fields into it (a document that is not cold is left alone). */
export function warm(doc: Doc): void {
  const slot = (doc as ColdDoc)[SLOT];
  if (slot === undefined) return;
  const size = readSlot(slot);
  forgetSlot(slot);
  decodeDocumentInto(read.buf, read.start, size, doc);
}

/** Ends a slot: its document is no longer cold (its slot property deleted first: see SLOT). */
function forgetSlot(slot: number): void {
  delete docs[slot]![SLOT];
  docs[slot] = undefined;
  const file = files[slot]!;
  files[slot] = undefined;
  releaseColdFile(file);
  if (--coldState.count === 0) {
    // The last one: let the slots go.
    docs = [];
    files = [];
    positions = [];
  }
}

function closeFile(file: ColdFile): void {
  if (read.file === file) read.file = undefined;
  fs.closeSync(file.fd);
  file.fd = -1;
}

/** Forgets the documents `owner` left cold (its store is closed: nothing reads them any more). */
export function forgetCold(owner: object): void {
  for (let slot = 0; slot < files.length; slot++) if (files[slot]?.owner === owner) forgetSlot(slot);
}

/**
 * An index's reading of a document's key fields (Index.expandDoc): a cold document's fields are read from its bytes
 * into out[at..] without warming it (an index build reads the first entry of every leaf; a search reads a few), and
 * true is returned; false for a document that is not cold, or one warmed here because a field holds no scalar.
 */
export function readColdFields(doc: Doc, names: readonly string[], out: unknown[], at = 0): boolean {
  const slot = (doc as ColdDoc)[SLOT];
  if (slot === undefined) return false;
  readSlot(slot);
  if (readFieldsInto(read.buf, read.start, names, out, at)) return true;
  warm(doc);
  return false;
}

/**
 * The last block read from a cold file: a document inside it is decoded from it. A read that follows on from the
 * block (a pass in file order) reads a large one, any other a small one; both into the same two buffers, reused.
 */
const SMALL_READ = 16 * 1024;
const LARGE_READ = 512 * 1024;
const small = Buffer.allocUnsafeSlow(SMALL_READ);
let large: Buffer | undefined;
const read: { file: ColdFile | undefined; block: Buffer; at: number; length: number; buf: Buffer; start: number } = {
  file: undefined,
  block: small,
  at: 0,
  length: 0,
  buf: small,
  start: 0,
};

/** Points read.buf/read.start at the bytes of the document in `slot` and returns its size. */
function readSlot(slot: number): number {
  const file = files[slot]!;
  const position = positions[slot];
  if (read.file === file && position >= read.at && position + 4 <= read.at + read.length) {
    const start = position - read.at;
    const size = read.block.readInt32LE(start);
    if (start + size <= read.length) {
      read.buf = read.block;
      read.start = start;
      return size;
    }
  }
  const followsOn = read.file === file && position >= read.at && position <= read.at + read.length + SMALL_READ;
  const block = followsOn ? (large ??= Buffer.allocUnsafeSlow(LARGE_READ)) : small;
  read.file = file;
  read.block = block;
  read.at = position;
  read.length = readFully(file.fd, block, block.length, position);
  const size = read.length >= 4 ? block.readInt32LE(0) : 0;
  if (size < 5) throw new Error("the embedded database snapshot changed under a cold document");
  if (size <= read.length) {
    read.buf = block;
    read.start = 0;
    return size;
  }
  // Larger than a block: a buffer of its own.
  const own = Buffer.allocUnsafe(size);
  if (readFully(file.fd, own, size, position) !== size)
    throw new Error("the embedded database snapshot changed under a cold document");
  read.file = undefined;
  read.buf = own;
  read.start = 0;
  return size;
}

function readFully(fd: number, into: Buffer, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, into, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/**
 * Warms every document still cold, in the order they were made (file order: each file read once, front to back,
 * a large block at a time), calling `pause` between slices; `stopped` ends it early.
 */
export async function warmAll(pause: () => Promise<void>, stopped: () => boolean): Promise<void> {
  // Slots a reader warmed meanwhile are empty; the lists start again empty once none is left (and a start made
  // meanwhile adds its slots at their end).
  for (let slot = 0; slot < docs.length; slot++) {
    const doc = docs[slot];
    if (doc) warm(doc);
    if ((slot & 1_023) === 1_023) {
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
