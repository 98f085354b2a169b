import crypto from "node:crypto";
import { Transform, type Readable } from "node:stream";
import { MongoBulkWriteError, ObjectId, type Db } from "mongodb";
import { getDb } from "~/db.server";
import {
  FILE_STATUS_UNKNOWN_LAYOUT,
  FILE_STATUS_UNREADABLE,
  finishJob,
  reportProgress,
  type JobClaim,
} from "~/models/file-jobs.server";
import { FILE_STATUS_OK } from "~/models/files.server";
import { extensionOf, objectUrlPath, openReadStream } from "~/services/storage.server";
import { readCsvRows, readXlsxRows, UnreadableFileError, type SourceRow } from "./readers.server";
import { detectLayout, TEMPLATES, type Layout } from "./templates";
import { cellText, formatCount, type CellValue } from "./values";

/**
 * Imports one claimed file into its template's OK / NOK collections.
 *
 * Idempotent per file: a (re)run first deletes the rows whose sourceFileId is this file, and every
 * row's _id is derived from (file id, line number), so even a worker that lost its lease and keeps
 * writing can only collide with the new owner's rows (duplicate keys are ignored), never add copies.
 */

export const INGEST_BATCH_SIZE = 2_000;
export const PROGRESS_INTERVAL_MS = 1_000;
const MAX_WRITES_IN_FLIGHT = 2;

export class LeaseLostError extends Error {
  constructor() {
    super("The job's lease was taken over by another worker");
    this.name = "LeaseLostError";
  }
}

export type IngestOutcome =
  | { kind: "done"; status: number; message: string; okRows: number; nokRows: number }
  | { kind: "lease-lost" };

/** A row's _id: the file's creation second, 4 bytes of the file id's hash, the line number. */
export function importedRowId(fileId: ObjectId, line: number): ObjectId {
  return rowIdsFor(fileId)(line);
}

/** importedRowId for one file, with the file's 8-byte prefix computed once instead of per row. */
export function rowIdsFor(fileId: ObjectId): (line: number) => ObjectId {
  const prefix = Buffer.alloc(8);
  fileId.id.subarray(0, 4).forEach((b, i) => (prefix[i] = b));
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
  working: (rows: number) => `Processando: ${formatCount(rows)} linhas lidas`,
  done: (ok: number, nok: number) => `${formatCount(ok)} linhas OK, ${formatCount(nok)} NOK`,
  unknownLayout: () =>
    `Layout não reconhecido: o cabeçalho não corresponde a nenhum modelo (${TEMPLATES.map((t) => t.label).join(", ")}).`,
  empty: () => "Arquivo vazio: nenhuma linha de cabeçalho encontrada.",
  unsupported: (ext: string) => `Formato não suportado para processamento (.${ext || "sem extensão"}); envie CSV ou XLSX.`,
  unreadable: (detail: string) => `Não foi possível ler o arquivo: ${detail}`.slice(0, 300),
  missing: () => "Não foi possível ler o arquivo: o arquivo armazenado não foi encontrado.",
};

export type IngestOptions = {
  leaseMs: number;
  progressIntervalMs?: number;
  batchSize?: number;
  db?: Db;
};

/** Processes the claimed file to completion (or until the lease is lost) and records the outcome. */
export async function ingestClaimedFile(claim: JobClaim, options: IngestOptions): Promise<IngestOutcome> {
  const db = options.db ?? (await getDb());
  const format = formatOf(claim.originalFile);
  const finish = async (status: number, message: string, okRows = 0, nokRows = 0): Promise<IngestOutcome> =>
    (await finishJob(claim, { status, message })) ? { kind: "done", status, message, okRows, nokRows } : { kind: "lease-lost" };

  if (!format) return finish(FILE_STATUS_UNREADABLE, ingestMessages.unsupported(extensionOf(claim.originalFile)));

  let opened: { stream: Readable; size: number };
  try {
    opened = await openReadStream(claim.bucket, claim.originalFile);
  } catch (error) {
    const name = (error as Error).name;
    return finish(FILE_STATUS_UNREADABLE, name === "StoredObjectNotFoundError" ? ingestMessages.missing() : ingestMessages.unreadable((error as Error).message));
  }

  let bytesRead = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytesRead += chunk.length;
      done(null, chunk);
    },
  });
  opened.stream.on("error", (error) => counter.destroy(error));
  opened.stream.pipe(counter);
  const rows: AsyncGenerator<SourceRow> = format === "csv" ? readCsvRows(counter) : readXlsxRows(counter);

  const urlPath = objectUrlPath(claim.bucket, claim.originalFile);
  const batchSize = options.batchSize ?? INGEST_BATCH_SIZE;
  const rowId = rowIdsFor(claim.id);
  let layout: Layout | null = null;
  let okRows = 0;
  let nokRows = 0;
  let lost = false;
  let okBatch: Record<string, unknown>[] = [];
  let nokBatch: Record<string, unknown>[] = [];
  let batchTime = new Date(); // one timestamp per batch, not one Date per row
  // Up to MAX_WRITES_IN_FLIGHT batches are written while the next one is parsed: with 2, a slow reply (index
  // upkeep, a GC pause on the server) no longer stalls the parser (product_master with its indexes: ~20k → ~25k rows/s).
  // Batches hold distinct _ids, so their order does not matter; every write is awaited before the job finishes.
  let inFlight: Array<Promise<void>> = [];
  const settleWrites = async () => {
    const writes = inFlight;
    inFlight = [];
    await Promise.all(writes);
  };

  const progressTimer = setInterval(() => {
    const progress = opened.size > 0 ? (bytesRead / opened.size) * 100 : 0;
    reportProgress(claim, { progress, message: ingestMessages.working(okRows + nokRows), leaseMs: options.leaseMs })
      .then((held) => {
        if (!held) lost = true;
      })
      .catch(() => undefined); // a missed tick is retried on the next one; the lease is long enough
  }, options.progressIntervalMs ?? PROGRESS_INTERVAL_MS);

  const flush = async () => {
    if (lost) throw new LeaseLostError();
    const ok = okBatch;
    const nok = nokBatch;
    okBatch = [];
    nokBatch = [];
    batchTime = new Date();
    if (inFlight.length >= MAX_WRITES_IN_FLIGHT) await inFlight.shift();
    const template = layout!.template;
    const write = Promise.all([insertBatch(db, template.okCollection, ok), insertBatch(db, template.nokCollection, nok)]).then(() => undefined);
    write.catch(() => undefined); // awaited later; this only keeps an early failure from being "unhandled"
    inFlight.push(write);
  };

  try {
    for await (const row of rows) {
      if (!layout) {
        layout = detectLayout(row.cells);
        if (!layout) break;
        await Promise.all([
          db.collection(layout.template.okCollection).deleteMany({ sourceFileId: claim.id }),
          db.collection(layout.template.nokCollection).deleteMany({ sourceFileId: claim.id }),
        ]);
        continue;
      }
      const values: Record<string, CellValue> = {};
      let empty = true;
      for (const column of layout.columns) {
        const value = row.cells[column.index];
        values[column.name] = value;
        if (empty && cellText(value) !== "") empty = false;
      }
      if (empty) continue; // blank lines and trailing empty XLSX rows
      const outcome = layout.template.validate(values);
      const _id = rowId(row.line);
      if (outcome.ok) {
        okBatch.push({ _id, ...outcome.doc, urlPath, sourceFileId: claim.id, _lineNumber: row.line, creationDate: batchTime });
        okRows++;
      } else {
        nokBatch.push({
          _id,
          ...outcome.raw,
          _lineNumber: row.line,
          urlPath,
          [layout.template.nokTimeField]: batchTime,
          Error: outcome.errors.join(" | "),
          sourceFileId: claim.id,
        });
        nokRows++;
      }
      if (okBatch.length + nokBatch.length >= batchSize) await flush();
    }
    if (layout) {
      await flush();
      await settleWrites();
    }
  } catch (error) {
    clearInterval(progressTimer);
    await settleWrites().catch(() => undefined);
    await rows.return(undefined).catch(() => undefined);
    if (error instanceof LeaseLostError) return { kind: "lease-lost" };
    if (error instanceof UnreadableFileError) {
      if (layout) await removeImportedRows(db, layout, claim.id);
      return finish(FILE_STATUS_UNREADABLE, ingestMessages.unreadable(error.message));
    }
    throw error;
  } finally {
    clearInterval(progressTimer);
    opened.stream.destroy();
  }
  if (lost) return { kind: "lease-lost" };
  if (!layout) {
    await rows.return(undefined).catch(() => undefined);
    return finish(FILE_STATUS_UNKNOWN_LAYOUT, bytesRead === 0 && okRows === 0 ? ingestMessages.empty() : ingestMessages.unknownLayout());
  }
  return finish(FILE_STATUS_OK, ingestMessages.done(okRows, nokRows), okRows, nokRows);
}

async function removeImportedRows(db: Db, layout: Layout, fileId: ObjectId) {
  await Promise.all([
    db.collection(layout.template.okCollection).deleteMany({ sourceFileId: fileId }),
    db.collection(layout.template.nokCollection).deleteMany({ sourceFileId: fileId }),
  ]);
}
