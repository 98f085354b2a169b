import crypto from "node:crypto";
import { type Readable, Transform } from "node:stream";
import { type Db, MongoBulkWriteError, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { noteDataChanged } from "~/models/dashboard-cache.server";
import {
  FILE_STATUS_UNKNOWN_LAYOUT,
  FILE_STATUS_UNREADABLE,
  finishJob,
  type JobClaim,
  recordFileClass,
  recordResultPath,
  reportProgress,
} from "~/models/file-jobs.server";
import { FILE_STATUS_OK } from "~/models/files.server";
import { extensionOf, objectUrlPath, openReadStream } from "~/services/storage.server";
import { countOf } from "~/shared/excel/count-text";
import { type CellValue, cellText, formatCount } from "~/shared/excel/values";
import {
  FileRefusedError,
  readXlsxRows,
  type SourceRow,
  UnreadableFileError,
  XLSX_LIMITS,
} from "~/shared/excel/xlsx-reader.server";
import { type ClosestTemplate, closestTemplate, exampleValues } from "./catalog.server";
import { DatasetImport, FILE_STATUS_REJECTED } from "./datasets/ingest.server";
import { ExampleRows, exampleRowTexts, isExampleRow } from "./example-row";
import { FileClassifier, readAsHr } from "./file-class.server";
import { classifyClaimedFile } from "./hr-file-view.server";
import { batched, readCsvBatches } from "./readers.server";
import { detectTemplate, TEMPLATES } from "./registry";
import { applyReturnedExport, returnedExportOf } from "./returned-export.server";
import { ingestNonDataTarget } from "./targets.server";
import { checkRow, isDatasetTemplate, type MasterDataTemplate } from "./template";
import { grantUpload } from "./upload-rights.server";

/**
 * Imports one claimed file: its header row names its template (templates.ts detectTemplate); a master-data file's rows
 * go to the template's OK / NOK collections here, a dataset file's to its all-or-nothing import
 * (datasets/ingest.server.ts).
 *
 * Idempotent per file: a (re)run first deletes the rows whose sourceFileId is this file, and every
 * row's _id is derived from (file id, line number), so even a worker that lost its lease and keeps
 * writing can only collide with the new owner's rows (duplicate keys are ignored), never add copies.
 */

export const INGEST_BATCH_SIZE = 2_000;
export const PROGRESS_INTERVAL_MS = 1_000;
const MAX_WRITES_IN_FLIGHT = 2;
const XLSX_BATCH_ROWS = 256;

export class LeaseLostError extends Error {
  constructor() {
    super("The job's lease was taken over by another worker");
    this.name = "LeaseLostError";
  }
}

export type IngestOutcome =
  | {
      kind: "done";
      status: number;
      message: string;
      okRows: number;
      nokRows: number;
      /** The template (or returned export's dataset) the file was read as, and a refusal for the uploader's rights. */
      template?: string;
      refused?: true;
    }
  | { kind: "lease-lost" };

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

function isDuplicateOnly(error: unknown): boolean {
  if (!(error instanceof MongoBulkWriteError)) return false;
  const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  return errors.length > 0 && errors.every((e) => e.code === 11000);
}

async function insertBatch(db: Db, collection: string, docs: Record<string, unknown>[]): Promise<void> {
  if (docs.length === 0) return;
  try {
    await db.collection(collection).insertMany(docs, { ordered: false });
  } catch (error) {
    if (!isDuplicateOnly(error)) throw error;
  }
}

type Format = "csv" | "xlsx";

function formatOf(key: string): Format | null {
  const ext = extensionOf(key);
  if (ext === "csv" || ext === "txt") return "csv";
  if (ext === "xlsx") return "xlsx";
  return null;
}

export const ingestMessages = {
  working: (rows: number) => `Processando: ${countOf(rows, "linha lida", "linhas lidas")}`,
  done: (ok: number, nok: number, examples: ExampleRows = new ExampleRows()) =>
    ok + nok === 0 && examples.count > 0
      ? exampleRowTexts.only(examples, "carregado")
      : `${countOf(ok, "linha OK", "linhas OK")}, ${formatCount(nok)} NOK${exampleRowTexts.suffix(examples)}`,
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

/** Processes the claimed file to completion (or until the lease is lost) and records the outcome. */
export async function ingestClaimedFile(claim: JobClaim, options: IngestOptions): Promise<IngestOutcome> {
  // A document's class (files.fields.ts) is read from it first; a data file's from the rows read below.
  if (claim.target !== "data") await classifyClaimedFile(claim);
  // Explorer documents and report packages have jobs of their own: targets.server.ts.
  const otherTarget = await ingestNonDataTarget(claim, options);
  if (otherTarget) return otherTarget;
  const db = options.db ?? (await getDb());
  const clock = options.clock ?? systemClock;
  const format = formatOf(claim.originalFile);
  // What the audit trail is told at the end (worker-loop.server.ts): the template read, a refusal for rights.
  const seen: { template?: string; refused?: true } = {};
  // What the file holds, from the rows this job reads (file-class.server.ts); recorded as the job ends. `unread`: the
  // file could not be read far enough (unreadable: HR; a stall: left for its first read to decide).
  const classifier = claim.dataClass ? null : new FileClassifier();
  let unread: "unreadable" | "stalled" | null = null;
  const recordClass = async () => {
    if (readAsHr(seen.template)) await recordFileClass(claim.id, { dataClass: "hr", by: "hr-rows" });
    else if (!classifier || (unread === "stalled" && !classifier.done)) return;
    else if (!format) await recordFileClass(claim.id, { dataClass: "plain", by: "not-rows" });
    else if (unread === "unreadable" && !classifier.done)
      await recordFileClass(claim.id, { dataClass: "hr", by: "unreadable" });
    else await recordFileClass(claim.id, classifier.result());
  };
  // `retryable`: a failure the same file can get past (storage unreachable, a stalled source); refusals are not.
  const finish = async (
    status: number,
    message: string,
    okRows = 0,
    nokRows = 0,
    retryable = false,
  ): Promise<IngestOutcome> => {
    await recordClass();
    return (await finishJob(claim, { status, message, now: clock.now(), retryable }))
      ? { kind: "done", status, message, okRows, nokRows, ...seen }
      : { kind: "lease-lost" };
  };

  if (!format) return finish(FILE_STATUS_UNREADABLE, ingestMessages.unsupported(extensionOf(claim.originalFile)));
  const openSource = options.openSource ?? ((c: JobClaim) => openReadStream(c.bucket, c.originalFile));

  let opened: { stream: Readable; size: number };
  try {
    opened = await openSource(claim);
  } catch (error) {
    const name = (error as Error).name;
    // A missing object stays missing; any other failure to open it is the storage's, which may answer next time.
    if (name === "StoredObjectNotFoundError") return finish(FILE_STATUS_UNREADABLE, ingestMessages.missing());
    return finish(FILE_STATUS_UNREADABLE, ingestMessages.unreadable((error as Error).message), 0, 0, true);
  }

  const intervalMs = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  const stallMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  let bytesRead = 0;
  let lastDataAt = clock.now().getTime();
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytesRead += chunk.length;
      lastDataAt = clock.now().getTime();
      done(null, chunk);
    },
  });
  opened.stream.on("error", (error) => counter.destroy(error));
  opened.stream.pipe(counter);
  // Aborted when the job is given up (stalled, lease lost): the XLSX reader stops at its next inflated chunk instead
  // of reading on for a job that has already ended.
  const reading = new AbortController();
  const rows: AsyncGenerator<SourceRow[]> =
    format === "csv"
      ? readCsvBatches(counter)
      : batched(readXlsxRows(counter, XLSX_LIMITS, { signal: reading.signal }), XLSX_BATCH_ROWS);

  const urlPath = objectUrlPath(claim.bucket, claim.originalFile);
  const batchSize = options.batchSize ?? INGEST_BATCH_SIZE;
  const rowId = rowIdsFor(claim.id);
  // A master-data template (rows kept or sent to the NOK base, here).
  let master: MasterDataTemplate | null = null;
  // An all-or-nothing template (import/datasets): its rows wait in a spool file and are applied at the end.
  let dataset: DatasetImport | null = null;
  let closest: ClosestTemplate | undefined;
  // Set when the uploader may not load the recognised template (upload-rights.server.ts): nothing is written.
  let refusal: string | null = null;
  const uploader = { email: claim.user, operator: claim.operator };
  // An edited "Exportar Excel" file sent here instead of through its screen (returned-export.server.ts).
  let returned: ReturnType<typeof returnedExportOf> = null;
  let okRows = 0;
  let nokRows = 0;
  // Rows identical to the template's example (import/example-row.ts): neither OK nor NOK, named in the message.
  const exampleRows = new ExampleRows();
  let example: readonly unknown[] = [];
  let okBatch: Record<string, unknown>[] = [];
  let nokBatch: Record<string, unknown>[] = [];
  let batchTime = clock.now(); // one timestamp per batch, not one Date per row
  // Up to MAX_WRITES_IN_FLIGHT batches are written while the next one is parsed: with 2, a slow reply (index
  // upkeep, a GC pause on the server) no longer stalls the parser (product_master with its indexes: ~20k → ~25k rows/s).
  // Batches hold distinct _ids, so their order does not matter; every write is awaited before the job finishes.
  let inFlight: Array<Promise<void>> = [];
  const settleWrites = async () => {
    const writes = inFlight;
    inFlight = [];
    await Promise.all(writes);
  };

  // The heartbeat and the stall watchdog. An interruption (lease lost, source stalled) rejects whatever the
  // read loop awaits, so it ends even while waiting for a chunk that never comes.
  let stopped = false;
  let interruption: Error | null = null;
  const pending = new Set<(error: Error) => void>();
  const interruptible = <T>(work: Promise<T>): Promise<T> => {
    if (interruption) return Promise.reject(interruption);
    return new Promise<T>((resolve, reject) => {
      pending.add(reject);
      work.then(
        (value) => {
          pending.delete(reject);
          resolve(value);
        },
        (error) => {
          pending.delete(reject);
          reject(error);
        },
      );
    });
  };
  const interruptWith = (error: Error) => {
    interruption = error;
    reading.abort(error);
    for (const reject of pending) reject(error);
    pending.clear();
  };
  let waitingSince: number | null = null; // the read loop is waiting for the source since then
  let cancelTick = () => {};
  const tick = async () => {
    if (stopped) return;
    const now = clock.now();
    if (waitingSince !== null && now.getTime() - Math.max(waitingSince, lastDataAt) > stallMs) {
      stopped = true;
      interruptWith(new SourceStalledError());
      return;
    }
    const progress = opened.size > 0 ? (bytesRead / opened.size) * 100 : 0;
    try {
      const message = dataset
        ? (dataset.workingMessage() ?? ingestMessages.working(dataset.okRows + dataset.nokRows))
        : ingestMessages.working(okRows + nokRows);
      const held = await reportProgress(claim, { progress, message, leaseMs: options.leaseMs, now });
      if (!held) {
        stopped = true;
        interruptWith(new LeaseLostError());
        return;
      }
    } catch {
      // a missed beat is retried on the next one; the lease is far longer than the interval
    }
    if (stopped) return;
    // The next beat is due one interval after this one started, however long its write took.
    cancelTick = clock.setTimer(Math.max(0, intervalMs - (clock.now().getTime() - now.getTime())), tick);
  };
  cancelTick = clock.setTimer(intervalMs, tick);

  const flush = async () => {
    const ok = okBatch;
    const nok = nokBatch;
    okBatch = [];
    nokBatch = [];
    batchTime = clock.now();
    if (inFlight.length >= MAX_WRITES_IN_FLIGHT) await interruptible(inFlight.shift()!);
    const { load } = master!;
    const write = Promise.all([insertBatch(db, load.okCollection, ok), insertBatch(db, load.nokCollection, nok)]).then(
      () => undefined,
    );
    write.catch(() => undefined); // awaited later; this only keeps an early failure from being "unhandled"
    inFlight.push(write);
  };

  // Per-row scratch space, reused: the cells in header order, their trimmed text, the values to store.
  let values: CellValue[] = [];
  let texts: string[] = [];
  let stored: unknown[] = [];
  let indexes: number[] = [];

  try {
    read: for (;;) {
      waitingSince = clock.now().getTime();
      const next = await interruptible(rows.next());
      waitingSince = null;
      if (next.done) break;
      classifier?.seeBatch(next.value);
      for (const row of next.value) {
        if (!master && !dataset) {
          const found = detectTemplate(row.cells);
          if (!found) {
            returned = format === "xlsx" ? returnedExportOf(row.cells) : null;
            if (!returned) closest = closestTemplate(row.cells);
            break read;
          }
          const { template } = found;
          seen.template = template.id;
          const grant = await interruptible(grantUpload(uploader, template.id, template.label));
          if (!grant.ok) {
            seen.refused = true;
            refusal = grant.message;
            break read;
          }
          indexes = found.indexes;
          values = new Array(indexes.length);
          texts = new Array(indexes.length);
          if (isDatasetTemplate(template)) {
            const context = {
              db,
              file: claim.id,
              user: claim.user,
              urlPath,
              now: () => clock.now(),
              rowId,
              branchScope: grant.scope,
            };
            dataset = new DatasetImport(template, context);
            await interruptible(dataset.start());
          } else {
            master = template;
            example = exampleValues(template.id);
            stored = new Array(indexes.length);
            await interruptible(removeImportedRows(db, master, claim.id));
          }
          continue;
        }
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
        if (dataset) {
          dataset.accept(row.line, values, texts);
          if (dataset.pendingRows >= batchSize) await dataset.flush(interruptible);
          continue;
        }
        const template = master!;
        const columns = template.columns;
        const errors = checkRow(template, values, texts, stored);
        if (errors === null && isExampleRow(example, stored)) {
          exampleRows.note(row.line);
          continue;
        }
        const doc: Record<string, unknown> = { _id: rowId(row.line) };
        if (errors === null) {
          for (let k = 0; k < columns.length; k++) doc[columns[k].name] = stored[k];
          template.load.derive?.(doc);
          doc.urlPath = urlPath;
          doc.sourceFileId = claim.id;
          doc._lineNumber = row.line;
          doc.creationDate = batchTime;
          okBatch.push(doc);
          okRows++;
        } else {
          for (let k = 0; k < columns.length; k++) doc[columns[k].name] = texts[k];
          doc._lineNumber = row.line;
          doc.urlPath = urlPath;
          doc[template.load.nokTimeField] = batchTime;
          doc.Error = errors.join(" | ");
          doc.sourceFileId = claim.id;
          nokBatch.push(doc);
          nokRows++;
        }
        if (okBatch.length + nokBatch.length >= batchSize) await flush();
      }
    }
    // Stopped at the header (no template, an edited export, a refusal): the rows the class still needs are read.
    if (classifier && !master && !dataset) await interruptible(classifier.readMore(rows));
    if (master) {
      await flush();
      await interruptible(settleWrites());
    }
    if (dataset) {
      const ending = await dataset.finish(interruptible, () => undefined);
      stopped = true;
      cancelTick();
      return await finish(ending.status, ending.message, dataset.okRows, dataset.nokRows);
    }
  } catch (error) {
    stopped = true;
    cancelTick();
    // A source that never answers would keep the reader waiting: destroy it rather than wait for the reader.
    opened.stream.destroy();
    counter.destroy();
    void rows.return(undefined).catch(() => undefined);
    await settleWrites().catch(() => undefined);
    await dataset?.settle();
    if (error instanceof LeaseLostError) return { kind: "lease-lost" };
    if (error instanceof SourceStalledError || error instanceof UnreadableFileError) {
      unread = error instanceof SourceStalledError ? "stalled" : "unreadable";
      if (master) await removeImportedRows(db, master, claim.id);
      if (dataset) await dataset.discard();
      const message =
        error instanceof SourceStalledError
          ? ingestMessages.stalled(stallMs)
          : error instanceof FileRefusedError
            ? error.message
            : ingestMessages.unreadable(error.message);
      return finish(FILE_STATUS_UNREADABLE, message, 0, 0, error instanceof SourceStalledError);
    }
    throw error;
  } finally {
    stopped = true;
    cancelTick();
    opened.stream.destroy();
  }
  if (refusal !== null) {
    void rows.return(undefined).catch(() => undefined);
    return finish(FILE_STATUS_UNREADABLE, refusal);
  }
  if (!master && returned) {
    void rows.return(undefined).catch(() => undefined);
    const open = async () => (await openSource(claim)).stream;
    const applied = await applyReturnedExport(returned, uploader, open);
    seen.template = returned.dataset;
    if (!applied.ok && applied.forbidden) seen.refused = true;
    // The screen that queued a large file follows the job to this report (returned-file-jobs.server.ts).
    if (applied.ok) await recordResultPath(claim.id, applied.resultPath);
    return finish(
      applied.ok ? FILE_STATUS_OK : applied.forbidden ? FILE_STATUS_UNREADABLE : FILE_STATUS_REJECTED,
      applied.message,
    );
  }
  if (!master) {
    void rows.return(undefined).catch(() => undefined);
    return finish(
      FILE_STATUS_UNKNOWN_LAYOUT,
      bytesRead === 0 ? ingestMessages.empty() : ingestMessages.unknownLayout(closest),
    );
  }
  const [outcome] = await Promise.all([
    finish(FILE_STATUS_OK, ingestMessages.done(okRows, nokRows, exampleRows), okRows, nokRows),
    noteDataChanged([master.load.okCollection, master.load.nokCollection], db),
  ]);
  return outcome;
}

async function removeImportedRows(db: Db, template: MasterDataTemplate, fileId: ObjectId) {
  const { okCollection, nokCollection } = template.load;
  await Promise.all([
    db.collection(okCollection).deleteMany({ sourceFileId: fileId }),
    db.collection(nokCollection).deleteMany({ sourceFileId: fileId }),
    noteDataChanged([okCollection, nokCollection], db),
  ]);
}
