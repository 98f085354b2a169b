import { type Db, MongoBulkWriteError, type ObjectId } from "mongodb";
import { noteDataChanged } from "~/models/dashboard-cache.server";
import { FILE_STATUS_OK } from "~/models/files.server";
import { countOf } from "~/shared/excel/count-text";
import { type CellValue, formatCount } from "~/shared/excel/values";
import type { Step } from "./datasets/apply.server";
import type { DatasetImportContext } from "./datasets/ingest.server";
import { ExampleRows, exampleRowTexts, exampleValues, isExampleRow } from "./example-row";
import { LeaseLostError } from "./target-job.server";
import { checkRow, type MasterDataTemplate } from "./template";

/**
 * One file of a master-data template (spec 000), loaded row by row: a valid row goes to the template's OK collection,
 * an invalid one to its NOK collection with an Error column, and a row identical to the template's example
 * (example-row.ts) to neither; it is named in the message. A run first removes what an earlier run of the file wrote;
 * every row's _id derives from (file, line), so a duplicate key is a row an earlier run already wrote.
 */

const MAX_WRITES_IN_FLIGHT = 2;

export const masterDataMessages = {
  done: (ok: number, nok: number, examples: ExampleRows = new ExampleRows()) =>
    ok + nok === 0 && examples.count > 0
      ? exampleRowTexts.only(examples, "carregado")
      : `${countOf(ok, "linha OK", "linhas OK")}, ${formatCount(nok)} NOK${exampleRowTexts.suffix(examples)}`,
};

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

export class MasterDataImport {
  okRows = 0;
  nokRows = 0;
  private readonly exampleRows = new ExampleRows();
  private readonly example: readonly unknown[];
  /** The current row's values as stored, in column order (reused). */
  private readonly stored: unknown[];
  private ok: Record<string, unknown>[] = [];
  private nok: Record<string, unknown>[] = [];
  private batchTime: Date; // one timestamp per batch, not one Date per row
  /**
   * Up to MAX_WRITES_IN_FLIGHT batches are written while the next one is parsed: with 2, a slow reply (index upkeep, a
   * GC pause on the server) no longer stalls the parser. Batches hold distinct _ids, so their order does not matter;
   * every write is awaited before the job finishes.
   */
  private inFlight: Array<Promise<void>> = [];

  constructor(
    private readonly template: MasterDataTemplate,
    private readonly ctx: DatasetImportContext,
  ) {
    this.example = exampleValues(template.id);
    this.stored = new Array(template.columns.length);
    this.batchTime = ctx.now();
  }

  get pendingRows(): number {
    return this.ok.length + this.nok.length;
  }

  workingMessage(): null {
    return null;
  }

  start(): Promise<void> {
    return this.removeRows();
  }

  discard(): Promise<void> {
    return this.removeRows();
  }

  /** What runs of the file wrote, unless this run lost the job: the rows are then another run's. */
  private async removeRows(): Promise<void> {
    if (this.ctx.stillHeld && !(await this.ctx.stillHeld())) return;
    await removeImportedRows(this.ctx.db, this.template, this.ctx.file);
  }

  accept(line: number, values: readonly CellValue[], texts: readonly string[]): void {
    const { template, stored, ctx } = this;
    const columns = template.columns;
    const errors = checkRow(template, values, texts, stored);
    if (errors === null && isExampleRow(this.example, stored)) {
      this.exampleRows.note(line);
      return;
    }
    const doc: Record<string, unknown> = { _id: ctx.rowId(line) };
    if (errors === null) {
      for (let k = 0; k < columns.length; k++) doc[columns[k].name] = stored[k];
      template.load.derive?.(doc);
      doc.urlPath = ctx.urlPath;
      doc.sourceFileId = ctx.file;
      doc._lineNumber = line;
      doc.creationDate = this.batchTime;
      this.ok.push(doc);
      this.okRows++;
    } else {
      for (let k = 0; k < columns.length; k++) doc[columns[k].name] = texts[k];
      doc._lineNumber = line;
      doc.urlPath = ctx.urlPath;
      doc[template.load.nokTimeField] = this.batchTime;
      doc.Error = errors.join(" | ");
      doc.sourceFileId = ctx.file;
      this.nok.push(doc);
      this.nokRows++;
    }
  }

  async flush(step: Step): Promise<void> {
    const { ok, nok } = this;
    this.ok = [];
    this.nok = [];
    this.batchTime = this.ctx.now();
    if (this.inFlight.length >= MAX_WRITES_IN_FLIGHT) await step(this.inFlight.shift()!);
    // A claimer that lost the job (paused past its lease; the job given up or taken over) writes no more of it.
    if (this.ctx.stillHeld && !(await step(this.ctx.stillHeld()))) throw new LeaseLostError();
    const { okCollection, nokCollection } = this.template.load;
    const { db } = this.ctx;
    const write = Promise.all([insertBatch(db, okCollection, ok), insertBatch(db, nokCollection, nok)]).then(
      () => undefined,
    );
    write.catch(() => undefined); // awaited later; this only keeps an early failure from being "unhandled"
    this.inFlight.push(write);
  }

  async finish(step: Step): Promise<{ status: number; message: string; changed: string[] }> {
    await this.flush(step);
    await step(this.settleWrites());
    const { okCollection, nokCollection } = this.template.load;
    const message = masterDataMessages.done(this.okRows, this.nokRows, this.exampleRows);
    return { status: FILE_STATUS_OK, message, changed: [okCollection, nokCollection] };
  }

  async settle(): Promise<void> {
    await this.settleWrites().catch(() => undefined);
  }

  private async settleWrites(): Promise<void> {
    const writes = this.inFlight;
    this.inFlight = [];
    await Promise.all(writes);
  }
}

async function removeImportedRows(db: Db, template: MasterDataTemplate, fileId: ObjectId) {
  const { okCollection, nokCollection } = template.load;
  await Promise.all([
    db.collection(okCollection).deleteMany({ sourceFileId: fileId }),
    db.collection(nokCollection).deleteMany({ sourceFileId: fileId }),
    noteDataChanged([okCollection, nokCollection], db),
  ]);
}
