/**
 * Durability: an append-only journal of checksummed BSON records plus a
 * snapshot written by compaction.
 *
 * Record layout: u32 payload length | u32 CRC-32 of the payload | payload,
 * where payload = u8 record type | BSON document. Every command's records are
 * written and fdatasync'ed before its reply (commands waiting at the same time
 * share one fsync). On start the snapshot is loaded, then the journal is
 * replayed; a torn or corrupt tail (a crash in the middle of a write) is cut
 * off. Compaction writes the whole catalogue to snapshot.tmp, fsyncs it,
 * renames it over snapshot.bson, fsyncs the directory and empties the journal
 * (while serving, in slices, keeping the journal's tail: compactInBackground).
 * Every record is idempotent (put/delete by _id, create/drop), so replaying a
 * journal over a snapshot that already contains it is harmless.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { crc32 } from "node:zlib";
import { Binary, BSON } from "bson";
import { BTree } from "./btree";
import { ORDER_VERSION } from "./bson-order";
import { decodeDocumentFast, decodeOfficial, idElementOf } from "./bson-decode";
import { corruptAt, SnapshotChecker } from "./checksums";
import { type ColdFile, coldDocument, forgetCold, openColdFile, releaseColdFile, warmAll, warmUpIsHeld } from "./cold";
import {
  Collection,
  createIndexObject,
  withIdFirst,
  type Catalog,
  type ChangeSink,
  type IndexEntry,
  type IndexSpec,
  type StoredOrders,
} from "./storage";
import { keyOf, type Doc } from "./values";

const enum RecordType {
  Put = 1,
  Delete = 2,
  CreateCollection = 3,
  DropCollection = 4,
  CreateIndex = 5,
  DropIndex = 6,
  DropDatabase = 7,
  /** First record of a snapshot: its collections in file order (smallest first), so a start can load them one by one. */
  Manifest = 8,
  /**
   * In a snapshot, after a collection's documents: a slice of one index's order, as the positions (uint32,
   * little-endian) of its entries' documents among the collection's documents in the file, from position `f`.
   * A start then builds the index without sorting (checked in one pass; sorted after all if it does not hold).
   */
  IndexOrder = 9,
  /**
   * Every document of one insert command: { n: ns, d: [documents] }, the array as the command carried it (a
   * document's `_id` may come last: replay puts it first, as the server stored it).
   */
  PutMany = 10,
}

/** A Uint32Array's bytes are the little-endian uint32 an IndexOrder record holds. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Positions per IndexOrder record (256 KB). */
const ORDER_SLICE = 65_536;

const JOURNAL_FILE = "journal.log";
const SNAPSHOT_FILE = "snapshot.bson";
const SNAPSHOT_TMP = "snapshot.tmp";
const LOCK_FILE = "embedded-mongo.lock";
const LOCK_SOCKET = "embedded-mongo.lock.sock";
const COMPACT_MIN_BYTES = 64 * 1024 * 1024;
let compactMinBytes = COMPACT_MIN_BYTES;
const JOURNAL_MAX_BYTES = 512 * 1024 * 1024;

/** Tests: compact past `bytes` of journal instead of 64 MB (undefined restores the default). */
export function setCompactionThreshold(bytes: number | undefined): void {
  compactMinBytes = bytes ?? COMPACT_MIN_BYTES;
}

export function encodeRecord(type: number, body: Doc): Buffer {
  // Most records are small: serialized straight into a shared slab (one allocation per megabyte, not two per record).
  ensureArenaRoom();
  const start = arenaPos;
  let last: number;
  try {
    last = BSON.serializeWithBufferAndIndex(body, arena, { index: start + 9 });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return encodeRecordAlone(type, body);
  }
  const out = arena.subarray(start, last + 1);
  arenaPos = last + 1;
  out[8] = type;
  out.writeUInt32LE(out.length - 8, 0);
  out.writeUInt32LE(crc32(out.subarray(8)), 4);
  return out;
}

/**
 * A Put record ({ n: ns, d: document }) around a document's own BSON, laid out as BSON.serialize would, its
 * `_id` element moved first (as stored; the driver appends a generated _id). Undefined when it has no `_id`.
 */
export function encodePutRecord(ns: string, doc: Buffer): Buffer | undefined {
  const id = idElementOf(doc);
  if (!id) return undefined;
  const nsBytes = Buffer.byteLength(ns);
  const total = 9 + putBodySize(nsBytes, doc.length);
  let out: Buffer;
  if (total <= ARENA_MIN_FREE) {
    ensureArenaRoom();
    out = arena.subarray(arenaPos, arenaPos + total);
    arenaPos += total;
  } else out = Buffer.allocUnsafe(total);
  let i = writePutHead(out, ns, nsBytes, 0x03);
  const [idStart, idEnd] = id;
  i += doc.copy(out, i, 0, 4);
  i += doc.copy(out, i, idStart, idEnd);
  i += doc.copy(out, i, 4, idStart);
  i += doc.copy(out, i, idEnd, doc.length);
  return sealPutRecord(out, RecordType.Put);
}

/** A PutMany record around an insert command's `documents` array, in its own buffer (one copy, one checksum). */
export function encodePutManyRecord(ns: string, documents: Buffer): Buffer {
  const nsBytes = Buffer.byteLength(ns);
  const out = Buffer.allocUnsafe(9 + putBodySize(nsBytes, documents.length));
  documents.copy(out, writePutHead(out, ns, nsBytes, 0x04));
  return sealPutRecord(out, RecordType.PutMany);
}

/** The size of a put body: int32 size | 0x02 "n" int32 len ns 0 | 0x03 or 0x04 "d" value | 0. */
function putBodySize(nsBytes: number, valueBytes: number): number {
  return 4 + (3 + 4 + nsBytes + 1) + (3 + valueBytes) + 1;
}

/** Writes a put body up to its value (a document, 0x03, or an array, 0x04) into `out` after the record's head; returns where the value goes. */
function writePutHead(out: Buffer, ns: string, nsBytes: number, valueType: 0x03 | 0x04): number {
  let i = 9;
  out.writeInt32LE(out.length - 9, i);
  i += 4;
  out[i++] = 0x02;
  out[i++] = 0x6e; // n
  out[i++] = 0;
  out.writeInt32LE(nsBytes + 1, i);
  i += 4;
  i += out.write(ns, i, "utf8");
  out[i++] = 0;
  out[i++] = valueType;
  out[i++] = 0x64; // d
  out[i++] = 0;
  return i;
}

/** Ends a put record whose value fills `out` up to its last byte: the body's 0, the record's type, length and checksum. */
function sealPutRecord(out: Buffer, type: RecordType): Buffer {
  out[out.length - 1] = 0;
  out[8] = type;
  out.writeUInt32LE(out.length - 8, 0);
  out.writeUInt32LE(crc32(out.subarray(8)), 4);
  return out;
}

/** Joins buffers that are adjacent views of the same memory into one view each (no copy); others stay apart. */
export function contiguousRuns(records: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let current: Buffer | undefined;
  for (const r of records) {
    if (current && current.buffer === r.buffer && current.byteOffset + current.length === r.byteOffset) {
      current = Buffer.from(current.buffer, current.byteOffset, current.length + r.length);
    } else {
      if (current) out.push(current);
      current = r;
    }
  }
  if (current) out.push(current);
  return out;
}

const ARENA_BYTES = 1024 * 1024;
const ARENA_MIN_FREE = 64 * 1024;
let arena = Buffer.alloc(0);
let arenaPos = 0;

/** A new slab when the current one has less than ARENA_MIN_FREE bytes left (the records before keep the old one). */
function ensureArenaRoom(): void {
  if (arena.length - arenaPos < ARENA_MIN_FREE) {
    arena = Buffer.allocUnsafe(ARENA_BYTES);
    arenaPos = 0;
  }
}

/** A record in its own buffer (one that does not fit the slab). */
function encodeRecordAlone(type: number, body: Doc): Buffer {
  const bson = BSON.serialize(body);
  const out = Buffer.allocUnsafe(9 + bson.length);
  out[8] = type;
  out.set(bson, 9);
  out.writeUInt32LE(bson.length + 1, 0);
  out.writeUInt32LE(crc32(out.subarray(8)), 4);
  return out;
}

/** Reads records until the end or the first torn/corrupt one; returns the valid length. */
export function readRecords(buf: Buffer, onRecord: (type: number, body: Doc) => void): number {
  let pos = 0;
  while (pos + 8 <= buf.length) {
    const length = buf.readUInt32LE(pos);
    const sum = buf.readUInt32LE(pos + 4);
    if (length < 6 || pos + 8 + length > buf.length) break;
    const payload = buf.subarray(pos + 8, pos + 8 + length);
    if (crc32(payload) !== sum) break;
    let body: Doc;
    try {
      body = decodeOfficial(payload.subarray(1));
    } catch {
      break;
    }
    onRecord(payload[0], body);
    pos += 8 + length;
  }
  return pos;
}

function splitNs(ns: string): [string, string] {
  const dot = ns.indexOf(".");
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The disk operations of the journal; tests inject failures (a full disk) through this. */
export type JournalIo = {
  write(fd: number, data: Buffer): Promise<void>;
  datasync(fd: number): Promise<void>;
  truncate(fd: number, length: number): Promise<void>;
};

export const nodeIo: JournalIo = {
  write: (fd, data) => writeAll(fd, data),
  datasync: (fd) => new Promise<void>((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve()))),
  truncate: (fd, length) =>
    new Promise<void>((resolve, reject) => fs.ftruncate(fd, length, (e) => (e ? reject(e) : resolve()))),
};

type Pending = { record: Buffer; undo: () => void };

/**
 * Where a collection's records lie in snapshot.bson (its CreateCollection record to its last IndexOrder; its Put
 * records inside), and the collection's change counters when they were written (Journal.changesOf). A compaction
 * copies the whole section when the collection has not changed since, and its Put records when only its indexes did.
 */
type Section = {
  epoch: number;
  all: number;
  docs: number;
  at: number;
  length: number;
  putsAt: number;
  putsLength: number;
};

/** What the last compaction wrote: collections and documents copied from the snapshot before it, documents encoded. */
export type CompactionStats = {
  sectionsCopied: number;
  documentsCopied: number;
  documentsEncoded: number;
  ordersFromBuilds: number;
};

/** A write the disk refused: never acknowledged, and undone in memory. */
export class DurabilityError extends Error {
  constructor(readonly cause: NodeJS.ErrnoException) {
    super(
      cause.code === "ENOSPC"
        ? "the embedded server could not write to disk (no space left on device); the write was not applied"
        : `the embedded server could not make the write durable (${cause.message}); the write was not applied`,
    );
    this.name = "DurabilityError";
  }
}

export class Journal implements ChangeSink {
  private pending: Pending[] = [];
  private waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  /** The waiters of the batch being written now (a sync() with nothing pending waits for it too). */
  private inflight: { resolve: () => void; reject: (e: Error) => void }[] | undefined;
  failures = 0;
  lastFailure: DurabilityError | undefined;
  private flushing = false;
  /** Set after a failed write: the file may end in a partial record until it is cut back. */
  private needsTruncate = false;
  private size: number;
  private snapshotSize: number;
  private closed = false;
  /**
   * Per collection, how many changes were journaled for it: `all`, and `docs` those to its documents (a put, a
   * delete, a create or drop of the collection). A drop of a database moves the epoch instead. Every change a
   * snapshot holds passes through the journal (it would not be durable otherwise), so equal counters mean the
   * collection is what a section of snapshot.bson recorded.
   */
  private readonly changes = new Map<string, { all: number; docs: number }>();
  private epoch = 0;
  /** The collections' sections in the current snapshot.bson that a compaction can copy (see Section). */
  private sections = new Map<string, Section>();
  /** The last compaction's figures (tests; operators through the log). */
  lastCompaction: CompactionStats | undefined;

  private constructor(
    private readonly dir: string,
    private readonly catalog: Catalog,
    private fd: number,
    size: number,
    snapshotSize: number,
    private readonly io: JournalIo,
    private readonly lock: DirLock,
  ) {
    this.size = size;
    this.snapshotSize = snapshotSize;
  }

  /** Set once every collection is in memory (at once for a synchronous load). */
  loaded: Promise<void> = Promise.resolve();
  private loading = false;

  /**
   * Opens a data directory. With `lazy` (the default) and a snapshot that lists its collections, the
   * server can answer at once: collections load in the background, smallest first, and a command
   * waits only for the collections it names.
   */
  static async open(
    dir: string,
    catalog: Catalog,
    io: JournalIo = nodeIo,
    options: { lazy?: boolean } = {},
  ): Promise<Journal> {
    fs.mkdirSync(dir, { recursive: true });
    const lock = await acquireLock(dir);
    try {
      return Journal.load(dir, catalog, io, lock, options.lazy ?? true);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  private static load(dir: string, catalog: Catalog, io: JournalIo, lock: DirLock, lazy: boolean): Journal {
    const snapshotPath = path.join(dir, SNAPSHOT_FILE);
    const journalPath = path.join(dir, JOURNAL_FILE);
    fs.rmSync(path.join(dir, SNAPSHOT_TMP), { force: true });
    // The journal first, whole: it is small (compacted past 64 MB, and at start past 4 MB).
    const records: [number, Doc][] = [];
    let size = 0;
    if (fs.existsSync(journalPath)) {
      const log = fs.readFileSync(journalPath);
      size = readRecords(log, (type, body) => records.push([type, body]));
      if (size !== log.length) {
        // A torn last record: the write was never acknowledged, so drop it.
        fs.truncateSync(journalPath, size);
      }
    }
    const snapshotSize = fs.existsSync(snapshotPath) ? fs.statSync(snapshotPath).size : 0;
    const manifest = snapshotSize > 0 ? readManifest(snapshotPath) : undefined;
    const drops = records.some(([type]) => type === RecordType.DropCollection || type === RecordType.DropDatabase);
    const fd = fs.openSync(journalPath, "a");
    fs.fsyncSync(fd);
    fsyncDir(dir);
    const journal = new Journal(dir, catalog, fd, size, snapshotSize, io, lock);
    if (!lazy || !manifest || drops) {
      if (snapshotSize > 0) {
        const fdSnap = fs.openSync(snapshotPath, "r");
        try {
          forEachSnapshotRecord(fdSnap, snapshotPath, 0, (type, body) => replay(catalog, type, body));
        } finally {
          fs.closeSync(fdSnap);
        }
      }
      for (const [type, body] of records) replay(catalog, type, body);
      rebuildIndexes(catalog);
      // A snapshot from before manifests is rewritten once, so the next start can load lazily.
      if (size > 4 * 1024 * 1024 || (snapshotSize > 0 && !manifest)) journal.compact();
      catalog.sink = journal;
      return journal;
    }
    catalog.sink = journal;
    journal.loading = true;
    const journalNs = [...new Set(records.map(([, body]) => body.n as string))];
    catalog.beginLoading([...manifest.namespaces, ...journalNs]);
    journal.loaded = journal.loadInBackground(snapshotPath, manifest, records).catch((error: Error) => {
      if (error === STOPPED) return;
      console.error(`embedded-mongo: loading ${dir} failed: ${error.stack ?? error.message}`);
      catalog.loadError = new Error(`The embedded database in ${dir} could not be loaded: ${error.message}`);
      catalog.finishLoading();
    });
    return journal;
  }

  /** Reads the snapshot collection by collection, yielding between chunks; each becomes usable when complete. */
  private async loadInBackground(snapshotPath: string, manifest: Manifest, records: [number, Doc][]): Promise<void> {
    const byNs = new Map<string, [number, Doc][]>();
    for (const record of records) {
      const ns = record[1].n as string;
      const list = byNs.get(ns) ?? [];
      list.push(record);
      byNs.set(ns, list);
    }
    const catalog = this.catalog;
    let sawOrders = false;
    /** Where the current collection's records lie in the file (its section, for a compaction to copy). */
    let section = { at: 0, end: 0, afterHead: 0, putsAt: -1, putsEnd: -1 };
    const finish = async (coll: Collection, stored: StoredOrders) => {
      if (stored.cold) coll.docs.adopt(stored.ids, stored.docs);
      const [db, name] = splitNs(coll.ns);
      let colls = catalog.dbs.get(db);
      if (!colls) catalog.dbs.set(db, (colls = new Map()));
      colls.set(name, coll);
      const journaled = byNs.get(coll.ns) ?? [];
      for (const [type, body] of journaled) replay(catalog, type, body);
      byNs.delete(coll.ns);
      // The recorded orders describe the snapshot's documents: with the journal replayed over them, sort.
      const loaded = catalog.getCollection(db, name);
      if (loaded) {
        const built = await loaded.rebuildIndexesAsync(pauseSlice, journaled.length === 0 ? stored : undefined);
        catalog.noteIndexBuilds(built);
        // As the file holds it and as a snapshot would write it (no journal over it, every index that has a recorded
        // order built from it): a compaction may copy its section.
        if (journaled.length === 0 && built.unrecorded === 0) {
          const putsAt = section.putsAt < 0 ? section.afterHead : section.putsAt;
          const putsEnd = section.putsAt < 0 ? section.afterHead : section.putsEnd;
          const counted = this.changesOf(coll.ns);
          this.sections.set(coll.ns, {
            epoch: this.epoch,
            all: counted.all,
            docs: counted.docs,
            at: section.at,
            length: section.end - section.at,
            putsAt,
            putsLength: putsEnd - putsAt,
          });
        }
      }
      // Loaded once every record of it is known sound.
      await checker.through(section.end, () => this.closed);
      catalog.markReady(coll.ns);
    };
    const fd = fs.openSync(snapshotPath, "r");
    // The records' checksums, checked beside the load (checksums.ts).
    const snapshotEnd = fs.fstatSync(fd).size;
    const checker = new SnapshotChecker(snapshotPath, manifest.end, snapshotEnd);
    // Where cold documents are read back from (cold.ts): a descriptor of its own, kept while any of them is cold.
    const coldFile = openColdFile(snapshotPath, this);
    try {
      let current: Collection | undefined;
      let stored: StoredOrders = { docs: [], ids: [], orders: new Map(), sorted: new Set(), cold: false };
      /** Per index: its positions so far, or null once a slice did not follow on. */
      const filling = new Map<string, Filling | null>();
      let sinceYield = 0;
      const begin = (body: Doc, at: number, end: number) => {
        section = { at, end, afterHead: end, putsAt: -1, putsEnd: -1 };
        const [db, name] = splitNs(body.n as string);
        current = new Collection(db, name, (body.o as Doc) ?? {});
        stored = { docs: [], ids: [], orders: new Map(), sorted: new Set(), cold: false };
        filling.clear();
      };
      // Synchronous record by record; a promise only to finish a collection or to let the commands in.
      await forEachSnapshotRecordAsync(
        fd,
        snapshotPath,
        manifest.end,
        checker.inline,
        (type, body, at, end, buf, payloadAt) => {
          if (type === RecordType.CreateCollection) {
            if (current) return finish(current, ordersOf(stored, filling)).then(() => begin(body!, at, end));
            begin(body!, at, end);
          } else if (type === RecordType.CreateIndex && current) {
            const spec = body!.s as IndexSpec;
            current.indexes.set(spec.name, createIndexObject(spec));
            section.afterHead = end;
          } else if (type === RecordType.Put && current) {
            if (section.putsAt < 0) {
              section.putsAt = at;
              // Cold unless the journal changes the collection (then every index is sorted from decoded documents).
              stored.cold = !byNs.has(current.ns);
            }
            section.putsEnd = end;
            const doc = putDocumentOf(buf, payloadAt, at, stored.cold ? coldFile : undefined);
            const idKey = keyOf(doc._id);
            // A cold collection's map takes them all at its end (DocMap.adopt).
            if (!stored.cold) current.docs.set(idKey, doc);
            stored.docs.push(doc);
            stored.ids.push(idKey);
          } else if (type === RecordType.IndexOrder && current && body!.n === current.ns) {
            sawOrders = true;
            readOrderSlice(body!, stored.docs.length, filling);
          }
          section.end = end;
          if (++sinceYield >= 512) {
            sinceYield = 0;
            if (sliceIsOver()) {
              return pauseSlice().then(() => {
                if (this.closed) throw STOPPED;
              });
            }
          }
          return undefined;
        },
      );
      if (current) await finish(current, ordersOf(stored, filling));
      await checker.through(snapshotEnd, () => this.closed);
    } catch (error) {
      // Read unchecked, a corrupt record can fail the load in any way: the corruption is what to report.
      throw error === STOPPED ? error : await checker.explain(error as Error, Infinity);
    } finally {
      checker.stop();
      fs.closeSync(fd);
      releaseColdFile(coldFile);
    }
    const sortedFromSnapshot = catalog.indexBuilds.sorted;
    // Collections created after the snapshot was written exist in the journal only.
    for (const [ns, list] of byNs) {
      for (const [type, body] of list) replay(catalog, type, body);
      const [db, name] = splitNs(ns);
      const coll = catalog.getCollection(db, name);
      if (coll) catalog.noteIndexBuilds(coll.rebuildIndexes());
      catalog.markReady(ns);
    }
    catalog.finishLoading();
    // Every collection answers. The indexes a start deferred are built now, then the documents it left cold are
    // decoded, a slice at a time.
    if (!warmUpIsHeld()) {
      for (const colls of catalog.dbs.values()) {
        for (const coll of colls.values()) {
          if (this.closed || this.stopping) break;
          await coll.materializeAsync(pauseSlice);
        }
      }
      await warmAll(pauseSlice, () => this.closed || this.stopping);
    }
    this.loading = false;
    // A snapshot written before index orders were recorded is rewritten once, so the next start need not sort.
    if (this.size > 4 * 1024 * 1024 || (!sawOrders && sortedFromSnapshot > 0)) this.startCompaction();
  }

  putDocument(ns: string, doc: Doc, undo: () => void, raw?: Buffer): void {
    this.changed(ns, true);
    this.push((raw && encodePutRecord(ns, raw)) || encodeRecord(RecordType.Put, { n: ns, d: doc }), undo);
  }
  putDocuments(ns: string, documents: Buffer, undo: () => void): void {
    this.changed(ns, true);
    this.push(encodePutManyRecord(ns, documents), undo);
  }
  deleteDocument(ns: string, id: unknown, undo: () => void): void {
    this.changed(ns, true);
    this.push(encodeRecord(RecordType.Delete, { n: ns, id }), undo);
  }
  createCollection(ns: string, options: Doc, undo: () => void): void {
    this.changed(ns, true);
    this.push(encodeRecord(RecordType.CreateCollection, { n: ns, o: options }), undo);
  }
  dropCollection(ns: string, undo: () => void): void {
    this.changed(ns, true);
    this.push(encodeRecord(RecordType.DropCollection, { n: ns }), undo);
  }
  createIndex(ns: string, spec: IndexSpec, undo: () => void): void {
    this.changed(ns, false);
    this.push(encodeRecord(RecordType.CreateIndex, { n: ns, s: spec }), undo);
  }
  dropIndex(ns: string, name: string, undo: () => void): void {
    this.changed(ns, false);
    this.push(encodeRecord(RecordType.DropIndex, { n: ns, x: name }), undo);
  }
  dropDatabase(db: string, undo: () => void): void {
    this.epoch++;
    this.push(encodeRecord(RecordType.DropDatabase, { db }), undo);
  }

  /** Counts a change to a collection (before its record is queued: an undone change still counts, which only costs a copy). */
  private changed(ns: string, docs: boolean): void {
    const c = this.changesOf(ns);
    c.all++;
    if (docs) c.docs++;
  }

  private changesOf(ns: string): { all: number; docs: number } {
    let c = this.changes.get(ns);
    if (!c) this.changes.set(ns, (c = { all: 0, docs: 0 }));
    return c;
  }

  /** What snapshotChunks needs to copy unchanged collections from the current snapshot.bson. */
  private reuse(): Reuse {
    return {
      sections: this.sections,
      changesOf: (ns) => this.changesOf(ns),
      epoch: () => this.epoch,
      written: new Map(),
      stats: { sectionsCopied: 0, documentsCopied: 0, documentsEncoded: 0, ordersFromBuilds: 0 },
    };
  }

  private push(record: Buffer, undo: () => void): void {
    if (this.closed) throw new Error("the embedded database is closed");
    this.pending.push({ record, undo });
  }

  /** Resolves once every record appended so far is on disk; rejects (DurabilityError) when the disk refused them. */
  sync(): Promise<void> {
    if (this.pending.length === 0 && !this.flushing) return Promise.resolve();
    if (this.pending.length === 0 && this.inflight) {
      // Nothing new is pending, but the batch being written may hold the caller's records (a write that
      // yielded had them taken by another command's flush): wait for that batch.
      const batchWaiters = this.inflight;
      return new Promise((resolve, reject) => batchWaiters.push({ resolve, reject }));
    }
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.flushing) void this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        const waiters = this.waiters;
        this.pending = [];
        this.waiters = [];
        this.inflight = waiters;
        try {
          if (this.needsTruncate) {
            // Cut off what a failed write left behind before appending again.
            await this.io.truncate(this.fd, this.size);
            await this.io.datasync(this.fd);
            this.needsTruncate = false;
          }
          // Records that lie next to each other in one slab go out as one write, without copying them.
          const runs = contiguousRuns(batch.map((p) => p.record));
          let written = 0;
          try {
            for (const run of runs) {
              await this.io.write(this.fd, run);
              written += run.length;
            }
            await this.io.datasync(this.fd);
          } catch (error) {
            this.needsTruncate = true;
            throw error;
          }
          this.size += written;
          this.inflight = undefined;
          for (const w of waiters) w.resolve();
        } catch (error) {
          // Nothing of this batch, nor of anything queued after it (it may build on it), is acknowledged:
          // undo it all in memory, newest first, so reads see the last durable state, and fail the waiters.
          const failure = new DurabilityError(error as NodeJS.ErrnoException);
          this.failures++;
          this.lastFailure = failure;
          this.inflight = undefined;
          const undone = [...batch, ...this.pending];
          const failed = [...waiters, ...this.waiters];
          this.pending = [];
          this.waiters = [];
          for (let i = undone.length - 1; i >= 0; i--) undone[i].undo();
          for (const w of failed) w.reject(failure);
          if (this.needsTruncate) {
            try {
              await this.io.truncate(this.fd, this.size);
              this.needsTruncate = false;
            } catch {
              // retried before the next write
            }
          }
        }
      }
    } finally {
      this.flushing = false;
    }
    // Past three times the snapshot, or past 512 MB whatever the snapshot's size: the journal is read whole at start
    // (readFileSync cannot read 2 GiB or more), so it must never grow near that.
    if (
      this.size > compactMinBytes &&
      (this.size > 3 * this.snapshotSize || this.size > JOURNAL_MAX_BYTES) &&
      !this.needsTruncate
    )
      this.startCompaction();
  }

  /** The compaction running beside the commands, if any (see compactInBackground). */
  private compaction: Promise<void> | null = null;

  /** Set when close() begins: a compaction under way gives up. */
  private stopping = false;

  private startCompaction(): void {
    if (this.compaction || this.loading || this.closed || this.stopping) return;
    this.compaction = this.compactInBackground()
      .catch((error: Error) => {
        // The journal is still complete; compaction is tried again after a later flush.
        fs.rmSync(path.join(this.dir, SNAPSHOT_TMP), { force: true });
        if (error !== STOPPED) console.warn(`embedded-mongo: compaction failed: ${error.message}`);
      })
      .finally(() => (this.compaction = null));
  }

  /**
   * Compaction while the server keeps answering: the catalogue is written to snapshot.tmp in slices of a few
   * milliseconds (commands run in between, and keep appending to the journal). The snapshot is therefore
   * "fuzzy": each document is as it was when its slice ran. That is safe because every record is a whole
   * state (put/delete by _id, create/drop): the journal replayed over such a snapshot ends where the memory
   * is, whatever the interleaving, as long as the snapshot holds nothing the journal has not made durable.
   * So the switch waits for a moment when every write is on disk (nothing pending or being flushed) and no
   * flush failed meanwhile; then, in one synchronous step, the snapshot replaces the old one and the journal
   * keeps only what was appended since the compaction began (replaying it again is harmless).
   */
  private async compactInBackground(): Promise<void> {
    const started = this.size;
    const failures = this.failures;
    const tmp = path.join(this.dir, SNAPSHOT_TMP);
    const fd = fs.openSync(tmp, "w");
    const reuse = this.reuse();
    let source: number | undefined;
    let written = 0;
    try {
      for (const piece of snapshotChunks(this.catalog, reuse)) {
        if (piece.copy) {
          source ??= fs.openSync(path.join(this.dir, SNAPSHOT_FILE), "r");
          await copyRange(source, fd, piece.copy.at, piece.copy.length);
          written += piece.copy.length;
        } else {
          for (const run of piece.records) {
            await writeAll(fd, run);
            written += run.length;
          }
        }
        // Between chunks (a megabyte, or 256 documents): other commands run.
        await pauseSlice();
        if (this.closed || this.stopping) throw STOPPED;
      }
      await new Promise<void>((resolve, reject) => fs.fsync(fd, (e) => (e ? reject(e) : resolve())));
    } finally {
      fs.closeSync(fd);
      if (source !== undefined) fs.closeSync(source);
    }
    // A moment when everything in memory is durable (at most ~5 s of waiting; else try again later).
    const deadline = performance.now() + 5_000;
    while (this.flushing || this.pending.length > 0 || this.needsTruncate) {
      if (this.closed || this.stopping) throw STOPPED;
      if (performance.now() > deadline) throw new Error("no quiet moment to switch to the new snapshot");
      await new Promise((r) => setTimeout(r, 1));
    }
    if (this.closed || this.stopping) throw STOPPED;
    if (this.failures !== failures) throw new Error("a write failed during compaction");
    // From here on synchronous: no command runs until the switch is complete.
    const journalPath = path.join(this.dir, JOURNAL_FILE);
    const tail = Buffer.alloc(this.size - started);
    if (tail.length > 0) {
      const reader = fs.openSync(journalPath, "r");
      try {
        fs.readSync(reader, tail, 0, tail.length, started);
      } finally {
        fs.closeSync(reader);
      }
    }
    const journalTmp = `${journalPath}.tmp`;
    const tailFd = fs.openSync(journalTmp, "w");
    try {
      if (tail.length > 0) fs.writeSync(tailFd, tail);
      fs.fsyncSync(tailFd);
    } finally {
      fs.closeSync(tailFd);
    }
    // The sections describe the file being replaced: none is known until the switch is complete.
    this.sections = new Map();
    // A crash between the two renames leaves the new snapshot with the whole old journal: still correct.
    fs.renameSync(tmp, path.join(this.dir, SNAPSHOT_FILE));
    fsyncDir(this.dir);
    fs.renameSync(journalTmp, journalPath);
    fsyncDir(this.dir);
    const fdNew = fs.openSync(journalPath, "a");
    fs.closeSync(this.fd);
    this.fd = fdNew;
    this.size = tail.length;
    this.snapshotSize = written;
    this.sections = reuse.written;
    this.lastCompaction = reuse.stats;
  }

  /** Writes a snapshot of the whole catalogue and empties the journal. Synchronous on purpose: no command runs meanwhile. */
  compact(): void {
    if (this.pending.length > 0 || this.flushing || this.loading || this.closed || this.compaction) return;
    const tmp = path.join(this.dir, SNAPSHOT_TMP);
    const fd = fs.openSync(tmp, "w");
    const reuse = this.reuse();
    let source: number | undefined;
    let written = 0;
    try {
      for (const piece of snapshotChunks(this.catalog, reuse)) {
        if (piece.copy) {
          source ??= fs.openSync(path.join(this.dir, SNAPSHOT_FILE), "r");
          copyRangeSync(source, fd, piece.copy.at, piece.copy.length);
          written += piece.copy.length;
        } else {
          for (const run of piece.records) {
            fs.writeSync(fd, run);
            written += run.length;
          }
        }
      }
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
      if (source !== undefined) fs.closeSync(source);
    }
    // The sections describe the file being replaced: none is known until the switch is complete.
    this.sections = new Map();
    fs.renameSync(tmp, path.join(this.dir, SNAPSHOT_FILE));
    fsyncDir(this.dir);
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.size = 0;
    this.snapshotSize = written;
    this.sections = reuse.written;
    this.lastCompaction = reuse.stats;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.sync().catch(() => undefined);
    while (this.flushing) await new Promise((r) => setTimeout(r, 5));
    // A compaction under way gives up (its snapshot.tmp is removed); the one below replaces it.
    this.stopping = true;
    await this.compaction;
    if (!this.needsTruncate && this.size > 1024 * 1024) {
      try {
        const started = performance.now();
        this.compact();
        const seconds = (performance.now() - started) / 1000;
        // A long stop says why (a stop that waits for a big snapshot looks like a hang otherwise).
        if (seconds > 1 && this.lastCompaction) {
          const { sectionsCopied, documentsCopied, documentsEncoded } = this.lastCompaction;
          console.log(
            `embedded-mongo: snapshot at stop written in ${seconds.toFixed(1)} s (${documentsEncoded.toLocaleString("en")} documents encoded, ${documentsCopied.toLocaleString("en")} copied from the last snapshot, ${sectionsCopied} collections whole)`,
          );
        }
      } catch (error) {
        fs.rmSync(path.join(this.dir, SNAPSHOT_TMP), { force: true });
        console.warn(`embedded-mongo: compaction at stop failed: ${(error as Error).message}`);
      }
    }
    this.closed = true;
    forgetCold(this);
    if (this.catalog.sink === this) this.catalog.sink = undefined;
    fs.closeSync(this.fd);
    await this.lock.release();
  }
}

/**
 * What a compaction may copy (the current snapshot.bson's sections and the changes since), and what it wrote: the
 * new file's sections, valid once it replaces the old one.
 */
type Reuse = {
  sections: Map<string, Section>;
  changesOf: (ns: string) => { all: number; docs: number };
  epoch: () => number;
  written: Map<string, Section>;
  stats: CompactionStats;
};

/** A piece of a snapshot: records to write, or a byte range of the current snapshot.bson to copy. */
type SnapshotPiece =
  | { records: Buffer[]; copy?: undefined }
  | { records?: undefined; copy: { at: number; length: number } };

/**
 * The records of a snapshot of the whole catalogue, in chunks of about a megabyte (or 256 documents): smallest
 * collections first, announced by a manifest, so a later start makes them usable first. Each chunk's records
 * are joined into as few buffers as they allow (adjacent views of one slab). A Map's iterator survives changes
 * between chunks: a document changed later is seen as it is then, a new one is seen too (compactInBackground).
 * From `reuse`: a collection that has not changed since the current snapshot.bson was written is copied from it
 * whole, and one whose documents have not changed gets its Put records copied (its index orders are written again).
 */
function* snapshotChunks(catalog: Catalog, reuse: Reuse): Generator<SnapshotPiece> {
  let chunk: Buffer[] = [];
  let bytes = 0;
  let docs = 0;
  /** Bytes of the new file before what is generated next. */
  let offset = 0;
  const add = (record: Buffer) => {
    chunk.push(record);
    bytes += record.length;
    offset += record.length;
  };
  const take = () => {
    const out = { records: contiguousRuns(chunk) };
    chunk = [];
    bytes = 0;
    docs = 0;
    return out;
  };
  const all = [...catalog.dbs.values()]
    .flatMap((colls) => [...colls.values()])
    .sort((a, b) => a.docs.size - b.docs.size);
  add(encodeRecord(RecordType.Manifest, { c: all.map((c) => ({ n: c.ns, docs: c.docs.size })) }));
  for (const coll of all) {
    const epoch = reuse.epoch();
    const counted = { ...reuse.changesOf(coll.ns) };
    const old = reuse.sections.get(coll.ns);
    const valid = old !== undefined && old.epoch === epoch;
    if (valid && old.all === counted.all) {
      // Unchanged since the current snapshot: its section, as it is.
      reuse.written.set(coll.ns, { ...old, at: offset, putsAt: offset + (old.putsAt - old.at) });
      reuse.stats.sectionsCopied++;
      reuse.stats.documentsCopied += coll.docs.size;
      offset += old.length;
      if (chunk.length > 0) yield take();
      yield { copy: { at: old.at, length: old.length } };
      continue;
    }
    const sectionAt = offset;
    add(encodeRecord(RecordType.CreateCollection, { n: coll.ns, o: coll.options }));
    for (const index of [...coll.indexes.values()])
      add(encodeRecord(RecordType.CreateIndex, { n: coll.ns, s: index.spec }));
    // By document: an index that keeps documents holds them (or older versions: Collection.currentOf), others id keys.
    const positions = new Map<Doc, number>();
    let written = 0;
    const putsAt = offset;
    const writesBefore = coll.docWrites;
    if (valid && old.docs === counted.docs) {
      // The same documents in the same order as that snapshot's Put records (no put or delete since: a Map keeps
      // its order), numbered without a pause (cold ones left cold), then copied.
      for (const doc of coll.docs.storedValues()) positions.set(doc, written++);
      if (chunk.length > 0) yield take();
      yield { copy: { at: old.putsAt, length: old.putsLength } };
      offset += old.putsLength;
      reuse.stats.documentsCopied += written;
    } else {
      for (const doc of coll.docs.values()) {
        positions.set(doc, written++);
        add(encodeRecord(RecordType.Put, { n: coll.ns, d: doc }));
        if (bytes > 1024 * 1024 || ++docs >= 256) yield take();
      }
      reuse.stats.documentsEncoded += written;
    }
    const putsLength = offset - putsAt;
    // The Put records hold the documents as one state of the collection (no change between their chunks).
    const oneState = coll.docWrites === writesBefore;
    // Each ordered index's order, in slices (the tree may change between them: a start checks what it reads).
    for (const index of coll.orderedIndexes()) {
      const built = index.builtOrder;
      index.builtOrder = undefined;
      if (index.isMultikey || written === 0) continue;
      if (built && LITTLE_ENDIAN && oneState && built.docWrites === writesBefore && built.order.length <= written) {
        // The order its build sorted, over the same documents in the same order: written as it is.
        for (let from = 0; from < built.order.length; from += ORDER_SLICE) {
          const slice = built.order.subarray(from, from + ORDER_SLICE);
          add(orderRecord(coll.ns, index.name, from, Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength)));
          yield take();
        }
        if (coll.docWrites === writesBefore) add(sortedMark(coll.ns, index.name, built.order.length));
        reuse.stats.ordersFromBuilds++;
        continue;
      }
      let last: IndexEntry | undefined;
      let from = 0;
      for (;;) {
        const out = Buffer.allocUnsafe(ORDER_SLICE * 4);
        let n = 0;
        last = index.eachIdAfter(last, ORDER_SLICE, (id, pos) => {
          // An id key, or a held document: the stored one, or an older version of it (Collection.currentOf), which
          // the entry then trades for the stored one: an older version stays on the heap only until a snapshot.
          let at: number | undefined;
          if (typeof id === "string") {
            const doc = coll.docs.stored(id);
            at = doc && positions.get(doc);
          } else {
            at = positions.get(id as Doc);
            if (at === undefined) {
              const stored = coll.currentOf(id as Doc);
              if (stored !== undefined && stored !== id) BTree.setRefAt(pos, stored);
              at = stored && positions.get(stored);
            }
          }
          if (at !== undefined) out.writeUInt32LE(at, 4 * n++);
        });
        if (last === undefined) break;
        add(orderRecord(coll.ns, index.name, from, out.subarray(0, 4 * n)));
        from += n;
        yield take();
      }
      // Walked from the tree while the documents stayed as the Put records hold them: the order is sorted as is.
      if (oneState && coll.docWrites === writesBefore) add(sortedMark(coll.ns, index.name, from));
    }
    // Copyable next time only if nothing changed while it was written (between its chunks).
    if (reuse.changesOf(coll.ns).all === counted.all && reuse.epoch() === epoch) {
      reuse.written.set(coll.ns, {
        epoch,
        all: counted.all,
        docs: counted.docs,
        at: sectionAt,
        length: offset - sectionAt,
        putsAt,
        putsLength,
      });
    }
  }
  if (chunk.length > 0) yield take();
}

/** An IndexOrder record: positions `from` on of one index's order, as little-endian uint32s. */
function orderRecord(ns: string, index: string, from: number, positions: Buffer): Buffer {
  return encodeRecord(RecordType.IndexOrder, { n: ns, x: index, f: from, o: new Binary(positions) });
}

/**
 * The IndexOrder record that ends an order of `count` positions recorded while its collection did not change (so its
 * entries follow each other as compareValues of ORDER_VERSION orders them): no positions, and the version, `s`. A
 * start takes such an order without comparing its entries (readOrderSlice); an engine that knows no `s` reads an
 * empty slice.
 */
function sortedMark(ns: string, index: string, count: number): Buffer {
  return encodeRecord(RecordType.IndexOrder, {
    n: ns,
    x: index,
    f: count,
    o: new Binary(Buffer.alloc(0)),
    s: ORDER_VERSION,
  });
}

/** Copies `length` bytes at `at` of one file to the end of another, a few megabytes at a time. */
async function copyRange(from: number, to: number, at: number, length: number): Promise<void> {
  for (const piece of rangePieces(from, at, length)) await writeAll(to, piece);
}

function copyRangeSync(from: number, to: number, at: number, length: number): void {
  for (const piece of rangePieces(from, at, length)) {
    for (let done = 0; done < piece.length; ) done += fs.writeSync(to, piece, done);
  }
}

/** The bytes of a range of a file, read a few megabytes at a time into one buffer (each piece is spent before the next read). */
function* rangePieces(fd: number, at: number, length: number): Generator<Buffer> {
  const buf = Buffer.allocUnsafe(Math.max(1, Math.min(length, 4 * 1024 * 1024)));
  for (let done = 0; done < length; ) {
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, length - done), at + done);
    if (n <= 0) throw new Error(`the snapshot ended at byte ${at + done} while copying a collection from it`);
    yield buf.subarray(0, n);
    done += n;
  }
}

function writeAll(fd: number, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (offset: number) => {
      fs.write(fd, data, offset, data.length - offset, null, (error, written) => {
        if (error) return reject(error);
        if (offset + written < data.length) step(offset + written);
        else resolve();
      });
    };
    step(0);
  });
}

const openDirs = new Set<string>();

/** An exclusive hold on a data directory that the operating system drops when the process dies. */
export type DirLock = { release(): Promise<void> };

/**
 * Takes the data directory. The hold is a listening Unix socket: on Linux in the abstract
 * namespace, named after the directory's real path (the kernel refuses a second bind while the
 * holder lives and frees the name the moment it dies, even by kill -9); elsewhere a socket file
 * in the directory, taken over when connecting to it is refused (its holder is gone).
 * embedded-mongo.lock records the holder's pid for people; it is not what decides.
 */
async function acquireLock(dir: string): Promise<DirLock> {
  const resolved = fs.realpathSync(path.resolve(dir));
  if (openDirs.has(resolved)) {
    throw new Error(`The embedded database in ${dir} is already open in this process.`);
  }
  const inUse = () => {
    let holder = "another process";
    try {
      const pid = fs.readFileSync(path.join(dir, LOCK_FILE), "utf8").trim();
      if (/^\d+$/.test(pid)) holder = `process ${pid}`;
    } catch {
      // no pid recorded
    }
    return new Error(
      `The embedded database in ${dir} is in use by ${holder}. Stop it first (only one server may open a data directory).`,
    );
  };
  const listen = (address: string) =>
    new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer((socket) => socket.destroy());
      server.once("error", reject);
      server.listen(address, () => {
        server.off("error", reject);
        server.unref();
        resolve(server);
      });
    });
  let server: net.Server;
  let socketFile: string | undefined;
  if (process.platform === "linux") {
    const name = `\0journey-embedded-mongo-${createHash("sha256").update(resolved).digest("hex")}`;
    try {
      server = await listen(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") throw inUse();
      throw error;
    }
  } else {
    socketFile = path.join(dir, LOCK_SOCKET);
    try {
      server = await listen(socketFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      const alive = await new Promise<boolean>((resolve) => {
        const probe = net.connect(socketFile!);
        probe.once("connect", () => {
          probe.destroy();
          resolve(true);
        });
        probe.once("error", () => resolve(false));
      });
      if (alive) throw inUse();
      fs.rmSync(socketFile, { force: true });
      server = await listen(socketFile);
    }
  }
  fs.writeFileSync(path.join(dir, LOCK_FILE), String(process.pid));
  openDirs.add(resolved);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      openDirs.delete(resolved);
      fs.rmSync(path.join(dir, LOCK_FILE), { force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (socketFile) fs.rmSync(socketFile, { force: true });
    },
  };
}

function replay(catalog: Catalog, type: number, body: Doc): void {
  const collOf = (ns: string, create: boolean): Collection | undefined => {
    const [db, name] = splitNs(ns);
    let colls = catalog.dbs.get(db);
    if (!colls) {
      if (!create) return undefined;
      catalog.dbs.set(db, (colls = new Map()));
    }
    let coll = colls.get(name);
    if (!coll && create) colls.set(name, (coll = new Collection(db, name)));
    return coll;
  };
  switch (type) {
    case RecordType.PutMany: {
      const coll = collOf(body.n as string, true)!;
      for (const each of body.d as Doc[]) {
        const doc = withIdFirst(each);
        coll.docs.set(keyOf(doc._id), doc);
      }
      break;
    }
    case RecordType.Put: {
      const doc = body.d as Doc;
      collOf(body.n as string, true)!.docs.set(keyOf(doc._id), doc);
      break;
    }
    case RecordType.Delete:
      collOf(body.n as string, false)?.docs.delete(keyOf(body.id));
      break;
    case RecordType.CreateCollection: {
      const [db, name] = splitNs(body.n as string);
      if (!catalog.getCollection(db, name)) {
        let colls = catalog.dbs.get(db);
        if (!colls) catalog.dbs.set(db, (colls = new Map()));
        colls.set(name, new Collection(db, name, (body.o as Doc) ?? {}));
      }
      break;
    }
    case RecordType.DropCollection: {
      const [db, name] = splitNs(body.n as string);
      catalog.dbs.get(db)?.delete(name);
      if (catalog.dbs.get(db)?.size === 0) catalog.dbs.delete(db);
      break;
    }
    case RecordType.CreateIndex: {
      const spec = body.s as IndexSpec;
      collOf(body.n as string, true)!.indexes.set(spec.name, createIndexObject(spec));
      break;
    }
    case RecordType.DropIndex:
      collOf(body.n as string, false)?.indexes.delete(body.x as string);
      break;
    case RecordType.DropDatabase:
      catalog.dbs.delete(body.db as string);
      break;
    case RecordType.Manifest:
    case RecordType.IndexOrder:
      break;
    default:
      throw new Error(`Unknown journal record type ${type}`);
  }
}

/** An index's order as a start reads it: its positions so far, and whether its end said it was recorded sorted. */
type Filling = { order: Uint32Array; filled: number; sorted: boolean };

/**
 * Adds an IndexOrder record's positions to its index's order; a slice that does not follow on spoils that order. The
 * mark of an order recorded sorted (sortedMark) counts only right after the order's last slice, with this ORDER_VERSION.
 */
function readOrderSlice(body: Doc, docs: number, filling: Map<string, Filling | null>): void {
  const name = body.x as string;
  let state = filling.get(name);
  if (state === null) return;
  if (!state) filling.set(name, (state = { order: new Uint32Array(docs), filled: 0, sorted: false }));
  if (state.sorted) {
    // Nothing follows the mark.
    filling.set(name, null);
    return;
  }
  if (body.s !== undefined) {
    if (body.s === ORDER_VERSION && body.f === state.filled) state.sorted = true;
    return;
  }
  const raw = (body.o as Binary).buffer;
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.length);
  const count = bytes.length >>> 2;
  if (body.f !== state.filled || state.filled + count > state.order.length || bytes.length % 4 !== 0) {
    filling.set(name, null);
    return;
  }
  if (LITTLE_ENDIAN) {
    // The file's uint32s are this machine's: copied as bytes into the order's own.
    new Uint8Array(state.order.buffer, state.order.byteOffset + 4 * state.filled, 4 * count).set(
      bytes.subarray(0, 4 * count),
    );
  } else {
    for (let i = 0; i < count; i++) state.order[state.filled + i] = bytes.readUInt32LE(4 * i);
  }
  state.filled += count;
}

function ordersOf(stored: StoredOrders, filling: Map<string, Filling | null>): StoredOrders {
  for (const [name, state] of filling) {
    if (!state) continue;
    stored.orders.set(name, state.order.subarray(0, state.filled));
    if (state.sorted) stored.sorted.add(name);
  }
  return stored;
}

type Manifest = { namespaces: string[]; end: number };

/** The snapshot's manifest record (its collections, in file order) and where the records after it start. */
function readManifest(snapshotPath: string): Manifest | undefined {
  const fd = fs.openSync(snapshotPath, "r");
  try {
    const head = Buffer.alloc(8);
    if (fs.readSync(fd, head, 0, 8, 0) < 8) return undefined;
    const length = head.readUInt32LE(0);
    if (length < 6 || length > 64 * 1024 * 1024) return undefined;
    const payload = Buffer.alloc(length);
    fs.readSync(fd, payload, 0, length, 8);
    if (crc32(payload) !== head.readUInt32LE(4) || payload[0] !== RecordType.Manifest) return undefined;
    const body = decodeOfficial(payload.subarray(1));
    return { namespaces: (body.c as Doc[]).map((c) => c.n as string), end: 8 + length };
  } finally {
    fs.closeSync(fd);
  }
}

const CHUNK = 16 * 1024 * 1024;
/** Small enough that decoding one chunk stays within a few milliseconds (the server answers meanwhile). */
const ASYNC_CHUNK = 4 * 1024 * 1024;

/**
 * Decodes one record's BSON body, with the fast decoder when it can; the official codec decodes a copy (its binary
 * values are views of what it decodes, and a snapshot's chunk buffer is read into again) unless `views` says that
 * the caller copies what it keeps.
 */
function decodeBody(payload: Buffer, views = false): Doc {
  return (
    decodeDocumentFast(payload, 1, payload.length - 1) ??
    decodeOfficial(views ? payload.subarray(1) : Buffer.from(payload.subarray(1)))
  );
}

/** Reads a snapshot's records from `offset` in chunks (never the whole file in memory); throws on corruption. */
function forEachSnapshotRecord(
  fd: number,
  file: string,
  offset: number,
  onRecord: (type: number, body: Doc) => void,
): void {
  const chunks = new ChunkReader(fd, offset, CHUNK);
  for (let at = 0; ; ) {
    const read = chunks.next(at);
    const { buf, length } = chunks;
    at = 0;
    let end = 0;
    for (; at + 8 <= length && (end = recordEnd(buf, at, length, true)) >= 0; at = end)
      onRecord(buf[at + 8], decodeBody(buf.subarray(at + 8, end)));
    if (end === CORRUPT) throw corruptAt(file, chunks.base + at);
    if (read === 0) return chunks.checkEnd(at, file);
  }
}

/**
 * A file read in chunks into one buffer, used again for each (memory a process touches for the first time is dear,
 * and what a record's callback keeps of it is a copy): the unread tail of the last chunk moves to its front, then
 * the next `size` bytes of the file follow it.
 */
class ChunkReader {
  buf: Buffer;
  /** Where buf[0] lies in the file. */
  base = 0;
  length = 0;
  private pos: number;
  constructor(
    private readonly fd: number,
    offset: number,
    private readonly size: number,
  ) {
    this.buf = Buffer.allocUnsafeSlow(size);
    this.pos = offset;
  }
  /** Keeps buf[from..length) (a record the last chunk cut short) and reads on after it; how many bytes it read. */
  next(from: number): number {
    const tail = this.length - from;
    if (tail + this.size > this.buf.length) {
      const grown = Buffer.allocUnsafeSlow(tail + this.size);
      this.buf.copy(grown, 0, from, this.length);
      this.buf = grown;
    } else if (tail > 0) this.buf.copyWithin(0, from, this.length);
    const read = fs.readSync(this.fd, this.buf, tail, this.size, this.pos);
    this.base = this.pos - tail;
    this.pos += read;
    this.length = tail + read;
    return read;
  }
  /** At the end of the file: nothing may be left over after `at`. */
  checkEnd(at: number, file: string): void {
    if (at < this.length) throw corruptAt(file, this.base + at);
  }
}

const CORRUPT = -2;

/**
 * Where the snapshot record at buf[at] ends, its checksum checked (unless a SnapshotChecker does); -1 when it runs
 * past `length` (its rest in the next chunk), CORRUPT when its length or checksum is wrong.
 */
function recordEnd(buf: Buffer, at: number, length: number, check: boolean): number {
  const size = buf.readUInt32LE(at);
  if (size < 6) return CORRUPT;
  const end = at + 8 + size;
  if (end > length) return -1;
  if (check && crc32(buf.subarray(at + 8, end)) !== buf.readUInt32LE(at + 4)) return CORRUPT;
  return end;
}

/**
 * `at` is where the record starts in the file, `end` where the next one does. A Put record comes undecoded (body
 * undefined): its payload starts at buf[payloadAt]. `onRecord` returns a promise only when it has to be waited for.
 * `check`: whether each record's checksum is checked here (else a SnapshotChecker does it).
 */
async function forEachSnapshotRecordAsync(
  fd: number,
  file: string,
  offset: number,
  check: boolean,
  onRecord: (
    type: number,
    body: Doc | undefined,
    at: number,
    end: number,
    buf: Buffer,
    payloadAt: number,
  ) => Promise<void> | undefined,
): Promise<void> {
  const chunks = new ChunkReader(fd, offset, ASYNC_CHUNK);
  for (let at = 0; ; ) {
    const read = chunks.next(at);
    const { buf, base, length } = chunks;
    at = 0;
    let end = 0;
    for (; at + 8 <= length && (end = recordEnd(buf, at, length, check)) >= 0; at = end) {
      const type = buf[at + 8];
      // An index order's positions are copied out by readOrderSlice: its body may stay a view of the chunk.
      const body =
        type === RecordType.Put ? undefined : decodeBody(buf.subarray(at + 8, end), type === RecordType.IndexOrder);
      const waited = onRecord(type, body, base + at, base + end, buf, at + 8);
      if (waited) await waited;
    }
    if (end === CORRUPT) throw corruptAt(file, base + at);
    if (read === 0) return chunks.checkEnd(at, file);
  }
}

/**
 * The document of the Put record whose payload starts at buf[payloadAt] ({ n: ns, d: document }) and which starts at
 * `recordAt` in its file: cold, read back from `coldFile`, when its `_id` comes first, else decoded.
 */
function putDocumentOf(buf: Buffer, payloadAt: number, recordAt: number, coldFile: ColdFile | undefined): Doc {
  // type byte, body size, 0x02 "n\0" and the namespace string, then 0x03 "d\0" and the document.
  const nsAt = payloadAt + 1 + 4 + 3;
  const docAt = nsAt + 4 + buf.readInt32LE(nsAt) + 3;
  const recordEnd = payloadAt + buf.readInt32LE(payloadAt + 1) + 1;
  if (
    buf[payloadAt + 5] === 0x02 &&
    buf[payloadAt + 6] === 0x6e &&
    buf[payloadAt + 7] === 0 &&
    buf[docAt - 3] === 0x03 &&
    buf[docAt - 2] === 0x64 &&
    buf[docAt - 1] === 0 &&
    docAt < recordEnd
  ) {
    const size = buf.readInt32LE(docAt);
    if (docAt + size <= recordEnd) {
      const cold = coldFile && coldDocument(buf, docAt, coldFile, recordAt + 8 + (docAt - payloadAt));
      if (cold) return cold;
      const doc = decodeDocumentFast(buf, docAt, size);
      if (doc) return doc;
    }
  }
  // Not laid out as the writer lays it out: the whole record, the general way.
  const payloadEnd = payloadAt + buf.readUInt32LE(payloadAt - 8);
  return decodeBody(buf.subarray(payloadAt, payloadEnd)).d as Doc;
}

/** Ends a background load when the server stops before it finished. */
const STOPPED = new Error("stopped while loading");

function yieldNow(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Yields when the current slice of a background job has run for more than a few milliseconds. */
let sliceStart = performance.now();
function sliceIsOver(): boolean {
  return performance.now() - sliceStart >= 8;
}
async function pauseSlice(): Promise<void> {
  if (!sliceIsOver()) return;
  await yieldNow();
  sliceStart = performance.now();
}

function rebuildIndexes(catalog: Catalog): void {
  for (const colls of catalog.dbs.values()) {
    for (const coll of colls.values()) coll.rebuildIndexes();
  }
}
