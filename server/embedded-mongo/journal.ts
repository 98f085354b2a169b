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
 * renames it over snapshot.bson, fsyncs the directory and empties the journal.
 * Every record is idempotent (put/delete by _id, create/drop), so replaying a
 * journal over a snapshot that already contains it is harmless.
 */
import fs from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { BSON } from "bson";
import { Collection, Index, type Catalog, type ChangeSink, type IndexSpec } from "./storage";
import { keyOf, type Doc } from "./values";

const enum RecordType {
  Put = 1,
  Delete = 2,
  CreateCollection = 3,
  DropCollection = 4,
  CreateIndex = 5,
  DropIndex = 6,
  DropDatabase = 7,
}

const JOURNAL_FILE = "journal.log";
const SNAPSHOT_FILE = "snapshot.bson";
const SNAPSHOT_TMP = "snapshot.tmp";
const LOCK_FILE = "embedded-mongo.lock";
const COMPACT_MIN_BYTES = 64 * 1024 * 1024;
const DESERIALIZE = { promoteLongs: true, promoteValues: true, promoteBuffers: false, bsonRegExp: false } as const;

export function encodeRecord(type: number, body: Doc): Buffer {
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
      body = BSON.deserialize(payload.subarray(1), DESERIALIZE);
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

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class Journal implements ChangeSink {
  private pending: Buffer[] = [];
  private waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing = false;
  private failure: Error | undefined;
  private size: number;
  private snapshotSize: number;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly catalog: Catalog,
    private fd: number,
    size: number,
    snapshotSize: number,
  ) {
    this.size = size;
    this.snapshotSize = snapshotSize;
  }

  static async open(dir: string, catalog: Catalog): Promise<Journal> {
    fs.mkdirSync(dir, { recursive: true });
    acquireLock(dir);
    try {
      return Journal.load(dir, catalog);
    } catch (error) {
      releaseLock(dir);
      throw error;
    }
  }

  private static load(dir: string, catalog: Catalog): Journal {
    const snapshotPath = path.join(dir, SNAPSHOT_FILE);
    const journalPath = path.join(dir, JOURNAL_FILE);
    fs.rmSync(path.join(dir, SNAPSHOT_TMP), { force: true });
    const apply = (type: number, body: Doc) => replay(catalog, type, body);
    let snapshotSize = 0;
    if (fs.existsSync(snapshotPath)) {
      const snap = fs.readFileSync(snapshotPath);
      const valid = readRecords(snap, apply);
      if (valid !== snap.length) {
        throw new Error(`The embedded database snapshot ${snapshotPath} is corrupt at byte ${valid}; restore it from a backup.`);
      }
      snapshotSize = snap.length;
    }
    let size = 0;
    if (fs.existsSync(journalPath)) {
      const log = fs.readFileSync(journalPath);
      size = readRecords(log, apply);
      if (size !== log.length) {
        // A torn last record: the write was never acknowledged, so drop it.
        fs.truncateSync(journalPath, size);
      }
    }
    rebuildIndexes(catalog);
    const fd = fs.openSync(journalPath, "a");
    fs.fsyncSync(fd);
    fsyncDir(dir);
    const journal = new Journal(dir, catalog, fd, size, snapshotSize);
    if (size > 4 * 1024 * 1024) journal.compact();
    catalog.sink = journal;
    return journal;
  }

  putDocument(ns: string, doc: Doc): void {
    this.push(encodeRecord(RecordType.Put, { n: ns, d: doc }));
  }
  deleteDocument(ns: string, id: unknown): void {
    this.push(encodeRecord(RecordType.Delete, { n: ns, id }));
  }
  createCollection(ns: string, options: Doc): void {
    this.push(encodeRecord(RecordType.CreateCollection, { n: ns, o: options }));
  }
  dropCollection(ns: string): void {
    this.push(encodeRecord(RecordType.DropCollection, { n: ns }));
  }
  createIndex(ns: string, spec: IndexSpec): void {
    this.push(encodeRecord(RecordType.CreateIndex, { n: ns, s: spec }));
  }
  dropIndex(ns: string, name: string): void {
    this.push(encodeRecord(RecordType.DropIndex, { n: ns, x: name }));
  }
  dropDatabase(db: string): void {
    this.push(encodeRecord(RecordType.DropDatabase, { db }));
  }

  private push(record: Buffer): void {
    if (this.closed) throw new Error("the embedded database is closed");
    this.pending.push(record);
  }

  /** Resolves once every record appended so far is on disk. */
  sync(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending.length === 0 && !this.flushing) return Promise.resolve();
    if (this.pending.length === 0 && this.flushing) {
      // Nothing of ours is pending; earlier records are being flushed by someone else.
      return Promise.resolve();
    }
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
        try {
          const data = batch.length === 1 ? batch[0] : Buffer.concat(batch);
          await writeAll(this.fd, data);
          await new Promise<void>((resolve, reject) => fs.fdatasync(this.fd, (e) => (e ? reject(e) : resolve())));
          this.size += data.length;
          for (const w of waiters) w.resolve();
        } catch (error) {
          this.failure = error as Error;
          for (const w of [...waiters, ...this.waiters]) w.reject(this.failure);
          this.waiters = [];
          this.pending = [];
          return;
        }
      }
    } finally {
      this.flushing = false;
    }
    if (this.size > COMPACT_MIN_BYTES && this.size > 2 * this.snapshotSize) {
      try {
        this.compact();
      } catch (error) {
        // The journal is still complete; compaction is retried after the next flush.
        console.warn(`embedded-mongo: compaction failed: ${(error as Error).message}`);
      }
    }
  }

  /** Writes a snapshot of the whole catalogue and empties the journal. Synchronous on purpose: no command runs meanwhile. */
  compact(): void {
    if (this.pending.length > 0 || this.flushing) return;
    const tmp = path.join(this.dir, SNAPSHOT_TMP);
    const fd = fs.openSync(tmp, "w");
    let written = 0;
    try {
      let chunk: Buffer[] = [];
      let chunkBytes = 0;
      const emit = (record: Buffer) => {
        chunk.push(record);
        chunkBytes += record.length;
        if (chunkBytes > 1024 * 1024) flush();
      };
      const flush = () => {
        if (chunk.length === 0) return;
        const data = Buffer.concat(chunk);
        fs.writeSync(fd, data);
        written += data.length;
        chunk = [];
        chunkBytes = 0;
      };
      for (const colls of this.catalog.dbs.values()) {
        for (const coll of colls.values()) {
          emit(encodeRecord(RecordType.CreateCollection, { n: coll.ns, o: coll.options }));
          for (const index of coll.indexes.values()) emit(encodeRecord(RecordType.CreateIndex, { n: coll.ns, s: index.spec }));
          for (const doc of coll.docs.values()) emit(encodeRecord(RecordType.Put, { n: coll.ns, d: doc }));
        }
      }
      flush();
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, path.join(this.dir, SNAPSHOT_FILE));
    fsyncDir(this.dir);
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.size = 0;
    this.snapshotSize = written;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.sync().catch(() => undefined);
    while (this.flushing) await new Promise((r) => setTimeout(r, 5));
    if (!this.failure && this.size > 1024 * 1024) this.compact();
    this.closed = true;
    if (this.catalog.sink === this) this.catalog.sink = undefined;
    fs.closeSync(this.fd);
    releaseLock(this.dir);
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

function acquireLock(dir: string): void {
  const resolved = path.resolve(dir);
  if (openDirs.has(resolved)) {
    throw new Error(`The embedded database in ${dir} is already open in this process.`);
  }
  const lock = path.join(dir, LOCK_FILE);
  try {
    const pid = Number(fs.readFileSync(lock, "utf8").trim());
    if (pid && pid !== process.pid && processAlive(pid)) {
      throw new Error(`The embedded database in ${dir} is in use by process ${pid}. Stop it first (only one server may open a data directory).`);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.writeFileSync(lock, String(process.pid));
  openDirs.add(resolved);
}

function releaseLock(dir: string): void {
  fs.rmSync(path.join(dir, LOCK_FILE), { force: true });
  openDirs.delete(path.resolve(dir));
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
      collOf(body.n as string, true)!.indexes.set(spec.name, new Index(spec));
      break;
    }
    case RecordType.DropIndex:
      collOf(body.n as string, false)?.indexes.delete(body.x as string);
      break;
    case RecordType.DropDatabase:
      catalog.dbs.delete(body.db as string);
      break;
    default:
      throw new Error(`Unknown journal record type ${type}`);
  }
}

function rebuildIndexes(catalog: Catalog): void {
  for (const colls of catalog.dbs.values()) {
    for (const coll of colls.values()) {
      for (const index of coll.indexes.values()) coll.buildIndex(index);
    }
  }
}
