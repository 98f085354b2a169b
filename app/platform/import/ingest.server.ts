import crypto from "node:crypto";
import { type Readable, Transform } from "node:stream";
import { type Db, ObjectId } from "mongodb";
import { FileRefusedError, readXlsxRows, type SourceRow, UnreadableFileError, XLSX_LIMITS } from "xlsx-reader";
import { getDb } from "~/db.server";
import { noteDataChanged } from "~/models/dashboard-cache.server";
import type { JobEnding } from "~/models/file-jobs.server";
import {
  clearGivenUp,
  FILE_STATUS_UNKNOWN_LAYOUT,
  FILE_STATUS_UNREADABLE,
  finishJob,
  givenUpFilesBefore,
  holdsClaim,
  type JobClaim,
  markApplyBegun,
  recordFileClass,
  recordResultPath,
  reportProgress,
} from "~/models/file-jobs.server";
import { FILE_STATUS_OK } from "~/models/files.server";
import { extensionOf, objectUrlPath, openReadStream } from "~/services/storage.server";
import { countOf } from "~/shared/excel/count-text";
import { type CellValue, cellText, formatCount } from "~/shared/excel/values";
import { type ClosestTemplate, closestTemplate } from "./catalog.server";
import { DATASET_COLLECTIONS, type Step } from "./datasets/apply.server";
import { DatasetImport, type DatasetImportContext, FILE_STATUS_REJECTED } from "./datasets/ingest.server";
import { ingestExplorerDocument } from "./documents.server";
import { FileClassifier, readAsHr } from "./file-class.server";
import { classifyClaimedFile } from "./hr-file-view.server";
import { MasterDataImport, masterDataMessages } from "./master-data.server";
import { batched, readCsvBatches } from "./readers.server";
import { detectTemplate, TEMPLATES, templateById } from "./registry";
import { ingestReportBundle } from "./report-bundle.server";
import { applyReturnedExport, returnedExportOf } from "./returned-export.server";
import { LeaseLostError, startTargetJob } from "./target-job.server";
import { isDatasetTemplate, type Layout } from "./template";
import { uploadRightsTexts, uploadTexts } from "./texts";
import { grantUpload, type Uploader } from "./upload-rights.server";

/**
 * Imports one claimed file. A data file's header row names its template (registry.ts detectTemplate); the uploader's
 * rights to it are checked (upload-rights.server.ts); a master-data file's rows go to the template's OK / NOK
 * collections (MasterDataImport, here), a dataset file's to its all-or-nothing import (datasets/ingest.server.ts). An
 * edited "Exportar Excel" file goes back through its screen (returned-export.server.ts); explorer documents and report
 * packages have jobs of their own (documents.server.ts, report-bundle.server.ts).
 *
 * Idempotent per file: a (re)run first deletes the rows whose sourceFileId is this file, and every
 * row's _id is derived from (file id, line number), so even a worker that lost its lease and keeps
 * writing can only collide with the new owner's rows (duplicate keys are ignored), never add copies.
 */

export const INGEST_BATCH_SIZE = 2_000;
export const PROGRESS_INTERVAL_MS = 1_000;
const XLSX_BATCH_ROWS = 256;

export type IngestOutcome = JobEnding;

/**
 * The row ids of one file: the file's creation second, 4 bytes of the file id's hash, the line number
 * (so a re-run writes the same ids). The 8-byte prefix is computed once per file.
 */
export function rowIdsFor(fileId: ObjectId): (line: number) => ObjectId {
  const prefix = Buffer.alloc(8);
  fileId.id.subarray(0, 4).forEach((b, i) => {
    prefix[i] = b;
  });
  crypto.createHash("sha256").update(fileId.id).digest().copy(prefix, 4, 0, 4);
  return (line) => {
    const bytes = Buffer.allocUnsafe(12);
    prefix.copy(bytes, 0, 0, 8);
    bytes.writeUInt32BE(line >>> 0, 8);
    return new ObjectId(bytes);
  };
}

/**
 * Removes the rows runs of a file wrote that are the file's own (by `sourceFileId`): a master-data template's OK and
 * NOK rows and a dataset's NOK rows. A dataset's valid rows reach its business collection only in the apply, once the
 * whole file is checked, and an upsert or a replace is not taken back (the job records that an apply began:
 * markApplyBegun). Used when a job is given up (worker-loop.server.ts).
 */
export async function removeRowsOfFile(fileId: ObjectId, db?: Db): Promise<void> {
  const database = db ?? (await getDb());
  const collections = TEMPLATES.flatMap((t) =>
    isDatasetTemplate(t) ? [DATASET_COLLECTIONS[t.id].nokCollection] : [t.load.okCollection, t.load.nokCollection],
  );
  const removed = await Promise.all(
    collections.map((c) => database.collection(c).deleteMany({ sourceFileId: fileId })),
  );
  const changed = collections.filter((_, i) => removed[i].deletedCount > 0);
  if (changed.length > 0) await noteDataChanged(changed, database);
}

/**
 * How long after a give-up its file's rows are removed once more (removeRowsOfGivenUpFiles): a batch a paused claimer
 * checked its claim for just before the give-up may land after the give-up's removal.
 */
export const GIVEN_UP_GRACE_MS = 10 * 60 * 1000;

/** Removes again the rows of files given up more than GIVEN_UP_GRACE_MS ago and not claimed since (the worker's sweep). */
export async function removeRowsOfGivenUpFiles(options: { now?: Date; db?: Db } = {}): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - GIVEN_UP_GRACE_MS);
  let removed = 0;
  for (const { id, givenUpAt } of await givenUpFilesBefore(cutoff)) {
    // Taken first: a claim meanwhile clears it, and its run's rows are not this sweep's.
    if (!(await clearGivenUp(id, givenUpAt))) continue;
    await removeRowsOfFile(id, options.db);
    removed++;
  }
  return removed;
}

type Format = "csv" | "xlsx";
type ReturnedExport = NonNullable<ReturnType<typeof returnedExportOf>>;

function formatOf(key: string): Format | null {
  const ext = extensionOf(key);
  if (ext === "csv" || ext === "txt") return "csv";
  if (ext === "xlsx") return "xlsx";
  return null;
}

export const ingestMessages = {
  working: (rows: number) => `Processando: ${countOf(rows, "linha lida", "linhas lidas")}`,
  done: masterDataMessages.done,
  unknownLayout: (closest?: ClosestTemplate) =>
    closest
      ? `Layout não reconhecido: o cabeçalho não corresponde a nenhum modelo. Mais próximo: ${closest.label}; faltam: ${listed(closest.missing)}; sobram: ${listed(closest.unexpected)}.`
      : `Layout não reconhecido: o cabeçalho não corresponde a nenhum modelo (${TEMPLATES.map((t) => t.label).join(", ")}).`,
  empty: () => "Arquivo vazio: nenhuma linha de cabeçalho encontrada.",
  unsupported: (ext: string) =>
    `Formato não suportado para processamento (.${ext || "sem extensão"}); envie CSV ou XLSX.`,
  unreadable: (detail: string) => `Não foi possível ler o arquivo: ${detail}`.slice(0, 300),
  missing: () => "Não foi possível ler o arquivo: o arquivo armazenado não foi encontrado.",
  stalled: (ms: number) =>
    `Processamento interrompido: a leitura do arquivo ficou parada por mais de ${formatCount(Math.round(ms / 1000))} s. Tente novamente.`,
};

/** Column names in a message: at most 10, each cut at 40 characters. */
function listed(names: readonly string[]): string {
  if (names.length === 0) return "nenhuma";
  const shown = names.slice(0, 10).map((n) => (n.length > 40 ? `${n.slice(0, 39)}…` : n));
  return names.length > 10 ? `${shown.join(", ")} e mais ${names.length - 10}` : shown.join(", ");
}

/** Time as the worker sees it: injectable so tests can drive the heartbeat without waiting. */
export type IngestClock = {
  now(): Date;
  /** Calls `fire` once after `ms`; returns a cancel function. */
  setTimer(ms: number, fire: () => unknown): () => void;
};

export const systemClock: IngestClock = {
  now: () => new Date(),
  setTimer(ms, fire) {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};

export type IngestOptions = {
  leaseMs: number;
  /** Heartbeat: progress, message, agent, statusChangeDate and the lease are written this often (≤ 2 s). */
  progressIntervalMs?: number;
  /** A source that delivers no byte for longer than this ends the job (status 3) instead of holding it. */
  stallTimeoutMs?: number;
  batchSize?: number;
  db?: Db;
  clock?: IngestClock;
  /** Opens the stored file (tests pass a throttled or stalling stream). */
  openSource?: (claim: JobClaim) => Promise<{ stream: Readable; size: number }>;
};

export const DEFAULT_STALL_TIMEOUT_MS = 120_000;

/** Why the reading was cut short from outside the read loop. */
class SourceStalledError extends Error {}

/**
 * Processes the claimed file to completion (or until the lease is lost) and records the outcome. A data file's
 * header is recognised, the uploader's rights to its template checked, its rows checked, then applied, and the job
 * finished (readAndLoad); explorer documents and report packages have jobs of their own (ingestDocument).
 */
export async function ingestClaimedFile(claim: JobClaim, options: IngestOptions): Promise<IngestOutcome> {
  if (claim.target !== "data") return ingestDocument(claim, claim.target, options);
  const job = await startJob(claim, options);
  if (!job.format)
    return finish(job, FILE_STATUS_UNREADABLE, ingestMessages.unsupported(extensionOf(claim.originalFile)));
  const source = await openSource(job, job.format);
  if ("kind" in source) return source;
  return readAndLoad(new Run(job, source));
}

/**
 * An explorer document or a report package (documents.server.ts, report-bundle.server.ts), loaded only by those its
 * upload target admits (upload-rights.server.ts). Its class (files.fields.ts) is read from it first; a data file's
 * from the rows its job reads.
 */
async function ingestDocument(
  claim: JobClaim,
  target: "explorer" | "reports",
  options: IngestOptions,
): Promise<IngestOutcome> {
  await classifyClaimedFile(claim);
  const label = target === "explorer" ? uploadRightsTexts.explorerLabel : uploadRightsTexts.reportsLabel;
  const grant = await grantUpload({ email: claim.user, operator: claim.operator }, target, label);
  if (!grant.ok) return (await startTargetJob(claim, options)).finish(FILE_STATUS_UNREADABLE, grant.message);
  return target === "explorer" ? ingestExplorerDocument(claim, options) : ingestReportBundle(claim, options);
}

/** What the steps of a data file's job share: the claim, where and when it writes, what the file turned out to be. */
type Job = {
  claim: JobClaim;
  options: IngestOptions;
  db: Db;
  clock: IngestClock;
  format: Format | null;
  uploader: Uploader;
  /** What the audit trail is told at the end (worker-loop.server.ts): the template read, a refusal for rights. */
  seen: { template?: string; refused?: true };
  /** What the file holds, from the rows this job reads (file-class.server.ts); recorded as the job ends. */
  classifier: FileClassifier | null;
  /** The file could not be read far enough (unreadable: HR; a stall: left for its first read to decide). */
  unread: "unreadable" | "stalled" | null;
};

async function startJob(claim: JobClaim, options: IngestOptions): Promise<Job> {
  return {
    claim,
    options,
    db: options.db ?? (await getDb()),
    clock: options.clock ?? systemClock,
    format: formatOf(claim.originalFile),
    uploader: { email: claim.user, operator: claim.operator },
    seen: {},
    classifier: claim.dataClass ? null : new FileClassifier(),
    unread: null,
  };
}

type Rows = { okRows: number; nokRows: number };
const NO_ROWS: Rows = { okRows: 0, nokRows: 0 };

/**
 * Step 5, for every ending: records the file's class, then ends the job. `retryable`: a failure the same file can get
 * past (storage unreachable, a stalled source); refusals are not.
 */
async function finish(
  job: Job,
  status: number,
  message: string,
  rows: Rows = NO_ROWS,
  retryable = false,
): Promise<IngestOutcome> {
  await recordClass(job);
  const { okRows, nokRows } = rows;
  return (await finishJob(job.claim, { status, message, now: job.clock.now(), retryable, nokRows }))
    ? { kind: "done", status, message, okRows, nokRows, ...job.seen }
    : { kind: "lease-lost" };
}

async function recordClass({ claim, classifier, unread, seen, format }: Job): Promise<void> {
  if (readAsHr(seen.template)) await recordFileClass(claim.id, { dataClass: "hr", by: "hr-rows" });
  else if (!classifier || (unread === "stalled" && !classifier.done)) return;
  else if (!format) await recordFileClass(claim.id, { dataClass: "plain", by: "not-rows" });
  else if (unread === "unreadable" && !classifier.done)
    await recordFileClass(claim.id, { dataClass: "hr", by: "unreadable" });
  else await recordFileClass(claim.id, classifier.result());
}

/** The stored file as the read takes it: its rows in batches, and how far the bytes under them have come. */
type Source = {
  stream: Readable;
  counter: Transform;
  size: number;
  bytesRead: number;
  lastDataAt: number;
  rows: AsyncGenerator<SourceRow[]>;
  /**
   * Aborted when the job is given up (stalled, lease lost): the XLSX reader stops at its next inflated chunk instead
   * of reading on for a job that has already ended.
   */
  reading: AbortController;
};

const openStored = (claim: JobClaim) => openReadStream(claim.bucket, claim.originalFile);

/** Opens the stored file, or ends the job when it cannot be. */
async function openSource(job: Job, format: Format): Promise<Source | IngestOutcome> {
  let opened: { stream: Readable; size: number };
  try {
    opened = await (job.options.openSource ?? openStored)(job.claim);
  } catch (error) {
    const { name, message } = error as Error;
    // A missing object stays missing; any other failure to open it is the storage's, which may answer next time.
    if (name === "StoredObjectNotFoundError") return finish(job, FILE_STATUS_UNREADABLE, ingestMessages.missing());
    return finish(job, FILE_STATUS_UNREADABLE, ingestMessages.unreadable(message), NO_ROWS, true);
  }
  const reading = new AbortController();
  const { stream, size } = opened;
  const counted = { bytesRead: 0, lastDataAt: job.clock.now().getTime() };
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      counted.bytesRead += chunk.length;
      counted.lastDataAt = job.clock.now().getTime();
      done(null, chunk);
    },
  });
  stream.on("error", (error) => counter.destroy(error));
  stream.pipe(counter);
  const rows =
    format === "csv"
      ? readCsvBatches(counter)
      : batched(readXlsxRows(counter, XLSX_LIMITS, { signal: reading.signal }), XLSX_BATCH_ROWS);
  return Object.assign(counted, { stream, counter, size, rows, reading });
}

/**
 * How the rows of a recognised template are loaded: a master-data template's here (MasterDataImport), a dataset's in
 * datasets/ingest.server.ts (DatasetImport).
 */
type RowLoader = Rows & {
  readonly pendingRows: number;
  /** The heartbeat's message while applying (null while reading). */
  workingMessage(): string | null;
  /** Forgets what an earlier run of this file wrote. */
  start(): Promise<void>;
  /** Checks one non-empty row: `values` and `texts` are its cells in the template's column order. */
  accept(line: number, values: readonly CellValue[], texts: readonly string[]): void;
  /** Writes the pending rows; `step` keeps the wait interruptible. */
  flush(step: Step): Promise<void>;
  /** Every row is read: applies the file (or refuses it); its status, message and the collections to note changed. */
  finish(step: Step, onApplyProgress: () => void): Promise<{ status: number; message: string; changed?: string[] }>;
  /** Waits for the writes in flight, ignoring their failures (the run is ending anyway). */
  settle(): Promise<void>;
  /** Removes what this run wrote (a run ended by an unreadable or stalled source). */
  discard(): Promise<void>;
};

/**
 * One read of a data file: its job, its source, the loader its header chose, and the heartbeat and stall watchdog
 * over them. An interruption (lease lost, source stalled) rejects whatever the read awaits through `step`, so it
 * ends even while waiting for a chunk that never comes.
 */
class Run {
  loader: RowLoader | null = null;
  readonly stallMs: number;
  private readonly intervalMs: number;
  /** The read loop is waiting for the source since then (null: it is not). */
  private waitingSince: number | null = null;
  private stopped = false;
  private interruption: Error | null = null;
  private readonly pending = new Set<(error: Error) => void>();
  private cancelTick: () => void;

  constructor(
    readonly job: Job,
    readonly source: Source,
  ) {
    this.intervalMs = job.options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
    this.stallMs = job.options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    this.cancelTick = job.clock.setTimer(this.intervalMs, this.tick);
  }

  /** `work`'s result, unless the read is interrupted first. */
  readonly step: Step = <T>(work: Promise<T>): Promise<T> => {
    if (this.interruption) return Promise.reject(this.interruption);
    return new Promise<T>((resolve, reject) => {
      this.pending.add(reject);
      work.then(
        (value) => {
          this.pending.delete(reject);
          resolve(value);
        },
        (error) => {
          this.pending.delete(reject);
          reject(error);
        },
      );
    });
  };

  /** The next batch of rows (seen by the classifier first), or null at the end of the file. */
  async nextBatch(): Promise<SourceRow[] | null> {
    this.waitingSince = this.job.clock.now().getTime();
    const next = await this.step(this.source.rows.next());
    this.waitingSince = null;
    if (next.done) return null;
    this.job.classifier?.seeBatch(next.value);
    return next.value;
  }

  /** Stops the heartbeat. */
  stop(): void {
    this.stopped = true;
    this.cancelTick();
  }

  private interruptWith(error: Error): void {
    this.stopped = true;
    this.interruption = error;
    this.source.reading.abort(error);
    for (const reject of this.pending) reject(error);
    this.pending.clear();
  }

  private message(): string {
    const { loader } = this;
    return loader?.workingMessage() ?? ingestMessages.working(loader ? loader.okRows + loader.nokRows : 0);
  }

  /** The heartbeat: the progress, the message and the lease, written every interval; the stall watchdog first. */
  private readonly tick = async (): Promise<void> => {
    if (this.stopped) return;
    const { clock, claim, options } = this.job;
    const now = clock.now();
    const { lastDataAt, size, bytesRead } = this.source;
    if (this.waitingSince !== null && now.getTime() - Math.max(this.waitingSince, lastDataAt) > this.stallMs)
      return this.interruptWith(new SourceStalledError());
    const progress = size > 0 ? (bytesRead / size) * 100 : 0;
    try {
      const held = await reportProgress(claim, { progress, message: this.message(), leaseMs: options.leaseMs, now });
      if (!held) return this.interruptWith(new LeaseLostError());
    } catch {
      // a missed beat is retried on the next one; the lease is far longer than the interval
    }
    if (this.stopped) return;
    // The next beat is due one interval after this one started, however long its write took.
    const wait = Math.max(0, this.intervalMs - (clock.now().getTime() - now.getTime()));
    this.cancelTick = clock.setTimer(wait, this.tick);
  };
}

/** Why a read stopped at the header: nothing of the file is loaded. */
type Stop =
  | { kind: "refused"; message: string }
  | { kind: "returned"; found: ReturnedExport }
  | { kind: "unknown"; closest?: ClosestTemplate };

/** The steps of a data file under the heartbeat: recognise, check rights, check rows, apply, finish. */
async function readAndLoad(run: Run): Promise<IngestOutcome> {
  let stop: Stop;
  try {
    const read = await readFile(run);
    if (!("kind" in read)) return await applyAndFinish(run, read);
    // Stopped at the header (no template, an edited export, a refusal): the rows the class still needs are read.
    if (run.job.classifier) await run.step(run.job.classifier.readMore(run.source.rows));
    stop = read;
  } catch (error) {
    return await givenUp(run, error);
  } finally {
    // The source is let go; the heartbeat is stopped by the ending (applyAndFinish, givenUp), or below: it keeps the
    // claim while an edited export is applied, which may take longer than a lease.
    run.source.stream.destroy();
  }
  try {
    return await endAtHeader(run, stop);
  } finally {
    run.stop();
  }
}

/** Steps 1 to 3: the header recognised, the uploader's rights to its template checked, every row checked. */
async function readFile(run: Run): Promise<RowLoader | Stop> {
  let batch = await run.nextBatch();
  while (batch?.length === 0) batch = await run.nextBatch();
  if (!batch) return { kind: "unknown" };
  const layout = recognise(run.job, batch[0].cells);
  if ("kind" in layout) return layout;
  const loader = await checkRights(run, layout);
  if ("kind" in loader) return loader;
  await checkRows(run, loader, layout.indexes, batch);
  return loader;
}

/**
 * Step 1: the template whose columns the header row holds (registry.ts detectTemplate); else an edited "Exportar
 * Excel" file's hidden column (returned-export.server.ts), or the closest template for the message.
 */
const templateLabel = (id: string) => templateById(id)?.label ?? id;

function recognise(job: Job, header: readonly CellValue[]): Layout | Stop {
  const found = detectTemplate(header);
  const named = job.claim.dataset;
  if (found) {
    job.seen.template = found.template.id;
    // Sent as one template's file (the API's `dataset`): another template's header is not loaded in its place.
    if (named && found.template.id !== named)
      return { kind: "refused", message: uploadTexts.otherDataset(found.template.label, templateLabel(named)) };
    return found;
  }
  const returned = job.format === "xlsx" ? returnedExportOf(header) : null;
  if (returned && named) return { kind: "refused", message: uploadTexts.namedDatasetHeader(templateLabel(named)) };
  return returned ? { kind: "returned", found: returned } : { kind: "unknown", closest: closestTemplate(header) };
}

/**
 * Step 2: may the uploader load this template now (upload-rights.server.ts)? Nothing is written when not; when so,
 * the template's loader forgets what an earlier run of the file wrote.
 */
async function checkRights(run: Run, { template }: Layout): Promise<RowLoader | Stop> {
  const { job } = run;
  const grant = await run.step(grantUpload(job.uploader, template.id, template.label));
  if (!grant.ok) {
    job.seen.refused = true;
    return { kind: "refused", message: grant.message };
  }
  const context: DatasetImportContext = {
    db: job.db,
    file: job.claim.id,
    user: job.claim.user,
    urlPath: objectUrlPath(job.claim.bucket, job.claim.originalFile),
    now: () => job.clock.now(),
    rowId: rowIdsFor(job.claim.id),
    stillHeld: () => holdsClaim(job.claim),
  };
  const beginApply = async () => {
    if (!(await markApplyBegun(job.claim))) throw new LeaseLostError();
  };
  const loader = isDatasetTemplate(template)
    ? new DatasetImport(template, { ...context, rows: grant.rows, beginApply })
    : new MasterDataImport(template, context);
  run.loader = loader;
  await run.step(loader.start());
  return loader;
}

/** Step 3: every row after the header, in the template's column order, to the loader; blank rows are skipped. */
async function checkRows(run: Run, loader: RowLoader, indexes: readonly number[], first: SourceRow[]): Promise<void> {
  const batchSize = run.job.options.batchSize ?? INGEST_BATCH_SIZE;
  // The current row's cells in column order and their trimmed text (reused).
  const values: CellValue[] = new Array(indexes.length);
  const texts: string[] = new Array(indexes.length);
  let batch: SourceRow[] | null = first;
  let from = 1; // the header is the first batch's first row
  while (batch) {
    for (let i = from; i < batch.length; i++) {
      const row = batch[i];
      const cells = row.cells;
      let empty = true;
      for (let k = 0; k < indexes.length; k++) {
        const value = cells[indexes[k]];
        const text = typeof value === "string" ? value.trim() : cellText(value);
        values[k] = value;
        texts[k] = text;
        if (text.length > 0) empty = false;
      }
      if (empty) continue; // blank lines and trailing empty XLSX rows
      loader.accept(row.line, values, texts);
      if (loader.pendingRows >= batchSize) await loader.flush(run.step);
    }
    batch = await run.nextBatch();
    from = 0;
  }
}

/** Steps 4 and 5: the loader applies the file (or refuses it), then the job ends with its counts. */
async function applyAndFinish(run: Run, loader: RowLoader): Promise<IngestOutcome> {
  const ending = await loader.finish(run.step, () => undefined);
  run.stop();
  const [outcome] = await Promise.all([
    finish(run.job, ending.status, ending.message, loader),
    ending.changed && noteDataChanged(ending.changed, run.job.db),
  ]);
  return outcome;
}

/**
 * A read cut short: a lost lease ends quietly (the new owner finishes the job); a stalled or unreadable source ends
 * the job with what this run wrote removed; anything else is thrown.
 */
async function givenUp(run: Run, error: unknown): Promise<IngestOutcome> {
  const { job, source, loader } = run;
  run.stop();
  // A source that never answers would keep the reader waiting: destroy it rather than wait for the reader.
  source.stream.destroy();
  source.counter.destroy();
  void source.rows.return(undefined).catch(() => undefined);
  await loader?.settle();
  if (error instanceof LeaseLostError) return { kind: "lease-lost" };
  if (!(error instanceof SourceStalledError || error instanceof UnreadableFileError)) throw error;
  const stalled = error instanceof SourceStalledError;
  job.unread = stalled ? "stalled" : "unreadable";
  await loader?.discard();
  const message = stalled
    ? ingestMessages.stalled(run.stallMs)
    : error instanceof FileRefusedError
      ? error.message
      : ingestMessages.unreadable(error.message);
  return finish(job, FILE_STATUS_UNREADABLE, message, NO_ROWS, stalled);
}

/** The end of a read that stopped at the header: refused for rights, an edited export applied, or no template. */
async function endAtHeader(run: Run, stop: Stop): Promise<IngestOutcome> {
  const { job, source } = run;
  void source.rows.return(undefined).catch(() => undefined);
  if (stop.kind === "refused") return finish(job, FILE_STATUS_UNREADABLE, stop.message);
  if (stop.kind === "returned") return applyReturned(job, stop.found);
  const message = source.bytesRead === 0 ? ingestMessages.empty() : ingestMessages.unknownLayout(stop.closest);
  return finish(job, FILE_STATUS_UNKNOWN_LAYOUT, message);
}

/** An edited "Exportar Excel" file: applied as its screen applies it, for the uploader (returned-export.server.ts). */
async function applyReturned(job: Job, found: ReturnedExport): Promise<IngestOutcome> {
  const open = async () => (await (job.options.openSource ?? openStored)(job.claim)).stream;
  // Changes applied through a screen's rules are not taken back if the run dies midway.
  if (!(await markApplyBegun(job.claim))) return { kind: "lease-lost" };
  // Only the claim's holder keeps the report and records it: a claimer that lost the job leaves them to the new one.
  const held = async () => {
    if (!(await holdsClaim(job.claim))) throw new LeaseLostError();
  };
  let applied: Awaited<ReturnType<typeof applyReturnedExport>>;
  try {
    applied = await applyReturnedExport(found, job.uploader, open, held);
  } catch (error) {
    if (error instanceof LeaseLostError) return { kind: "lease-lost" };
    throw error;
  }
  job.seen.template = found.dataset;
  if (!applied.ok && applied.forbidden) job.seen.refused = true;
  // The screen that queued a large file follows the job to this report (returned-file-jobs.server.ts).
  if (applied.ok && !(await recordResultPath(job.claim, applied.resultPath))) return { kind: "lease-lost" };
  const status = applied.ok ? FILE_STATUS_OK : applied.forbidden ? FILE_STATUS_UNREADABLE : FILE_STATUS_REJECTED;
  return finish(job, status, applied.message);
}
