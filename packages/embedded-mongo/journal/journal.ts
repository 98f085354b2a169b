/**
 * Durability: an append-only journal of checksummed BSON records (records.ts) plus a snapshot written by compaction
 * (snapshot.ts, compaction.ts). Every command's records are written and fdatasync'ed before its reply (commands
 * waiting at the same time share one fsync); a write the disk refuses is undone in memory. On start the snapshot is
 * loaded (at once, or in the background: load.ts), then the journal is replayed (replay.ts); a torn or corrupt tail
 * (a crash in the middle of a write) is cut off. One server holds a data directory at a time (lock.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { forgetCold } from "../cold";
import type { IndexSpec } from "../index-spec";
import type { Catalog } from "../storage/catalog";
import type { ChangeSink } from "../storage/change-sink";
import type { Doc } from "../values";
import {
  installSnapshot,
  journalOutgrown,
  writeJournalTail,
  writeSnapshotInSlices,
  writeSnapshotNow,
} from "./compaction";
import { fsyncDir, JOURNAL_FILE, type JournalIo, nodeIo, SNAPSHOT_FILE, SNAPSHOT_TMP } from "./io";
import { type LoadHost, loadInBackground } from "./load";
import { acquireLock, type DirLock } from "./lock";
import { contiguousRuns, encodePutManyRecord, encodePutRecord, encodeRecord, RecordType, readRecords } from "./records";
import { rebuildIndexes, replay } from "./replay";
import { STOPPED } from "./slices";
import type { CompactionStats, Reuse, Section } from "./snapshot";
import { forEachSnapshotRecord, type Manifest, readManifest } from "./snapshot-read";

type Pending = { record: Buffer; undo: () => void };

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

  /** Loads the snapshot in the background (load.ts), then compacts once when the files ask for it. */
  private async loadInBackground(snapshotPath: string, manifest: Manifest, records: [number, Doc][]): Promise<void> {
    const host: LoadHost = {
      catalog: this.catalog,
      owner: this,
      closed: () => this.closed,
      stopping: () => this.closed || this.stopping,
      noteSection: (ns, at, length, putsAt, putsLength) => {
        const counted = this.changesOf(ns);
        this.sections.set(ns, {
          epoch: this.epoch,
          all: counted.all,
          docs: counted.docs,
          at,
          length,
          putsAt,
          putsLength,
        });
      },
    };
    const { sawOrders, sortedFromSnapshot } = await loadInBackground(host, snapshotPath, manifest, records);
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
    // Past three times the snapshot, or past 512 MB whatever the snapshot's size (compaction.ts).
    if (journalOutgrown(this.size, this.snapshotSize) && !this.needsTruncate) this.startCompaction();
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
    const reuse = this.reuse();
    const written = await writeSnapshotInSlices(this.dir, this.catalog, reuse, () => this.closed || this.stopping);
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
    const tailLength = writeJournalTail(this.dir, started, this.size);
    // The sections describe the file being replaced: none is known until the switch is complete.
    this.sections = new Map();
    installSnapshot(this.dir, true);
    const fdNew = fs.openSync(path.join(this.dir, JOURNAL_FILE), "a");
    fs.closeSync(this.fd);
    this.fd = fdNew;
    this.size = tailLength;
    this.snapshotSize = written;
    this.sections = reuse.written;
    this.lastCompaction = reuse.stats;
  }

  /** Writes a snapshot of the whole catalogue and empties the journal. Synchronous on purpose: no command runs meanwhile. */
  compact(): void {
    if (this.pending.length > 0 || this.flushing || this.loading || this.closed || this.compaction) return;
    const reuse = this.reuse();
    const written = writeSnapshotNow(this.dir, this.catalog, reuse);
    // The sections describe the file being replaced: none is known until the switch is complete.
    this.sections = new Map();
    installSnapshot(this.dir, false);
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
