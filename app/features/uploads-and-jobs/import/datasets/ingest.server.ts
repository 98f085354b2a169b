import type { Db, ObjectId } from "mongodb";
import { clearStaged, dropStaleStaging, stageRows, type StagedRow } from "~/models/import-staging.server";
import { noteDataChanged } from "~/models/dashboard-cache.server";
import type { BusinessUnitId, Category1 } from "~/models/reports.fields";
import type { CellValue } from "../values";
import { formatCount } from "../values";
import { applyStaged, DATASET_COLLECTIONS, resolveRepositoryFiles, type ApplyResult, type ReplaceScope, type Step } from "./apply.server";
import { LEDGER_ACCOUNT_COLUMNS, type DatasetTemplate, type RowChecker, type RowValues } from "./definitions";
import { checkCell, invalid } from "./rules";

/**
 * One file of an all-or-nothing template, from its rows to the business collection:
 *
 * 1. each row is checked (cell rules, then the template's checks across columns and rows); a valid row is staged
 *    (app/models/import-staging.server.ts) under its key, an invalid one written to the NOK collection with its line
 *    and Error; a staged key that another line already holds is a duplicate, NOK too;
 * 2. at the end, a file with any NOK row (or none at all) applies nothing; a file without is applied from the staging
 *    in batches (apply.server.ts), and its staged rows are removed.
 *
 * The staging and the NOK rows of a file are removed first, so a re-run starts clean; the apply is idempotent, so a run
 * cut short while applying is repaired by the next.
 */

/** The job status of a file refused as a whole (rows broke the rules, or none to apply): nothing applied. */
export const FILE_STATUS_REJECTED = 4;

const MAX_WRITES_IN_FLIGHT = 2;

export const datasetMessages = {
  rejected: (ok: number, nok: number, nokCollection: string) =>
    `${formatCount(ok)} linhas OK, ${formatCount(nok)} NOK; nada foi aplicado: o arquivo só é aplicado quando todas as linhas são válidas. Corrija as linhas listadas na base ${nokCollection} e envie de novo.`,
  noRows: () => "Nenhuma linha de dados abaixo do cabeçalho: nada foi aplicado.",
  applying: (done: number, total: number) => `Aplicando: ${formatCount(done)} de ${formatCount(total)} linhas`,
  upserted: (ok: number, r: ApplyResult) =>
    `${formatCount(ok)} linhas OK, 0 NOK. Aplicado: ${formatCount(r.inserted)} novas, ${formatCount(r.updated)} alteradas, ${formatCount(r.unchanged)} sem alteração.`,
  replaced: (ok: number, r: ApplyResult, what: string) =>
    `${formatCount(ok)} linhas OK, 0 NOK. Aplicado: ${formatCount(r.pairs)} ${what} substituídos (${formatCount(r.removed)} linhas removidas, ${formatCount(r.inserted)} gravadas).`,
  duplicate: (keyColumns: readonly string[], otherLine: number) => `linha duplicada: a linha ${otherLine} tem os mesmos ${keyColumns.join(", ")}`,
  fileNotFound: "arquivo não encontrado no repositório (/repo/format); envie-o antes por /captura/manual",
};

type Pending = { staged: StagedRow[]; texts: Map<string, string[]>; nok: Record<string, unknown>[] };

export type DatasetImportContext = {
  db: Db;
  file: ObjectId;
  user: string;
  urlPath: string;
  now: () => Date;
  rowId: (line: number) => ObjectId;
};

export class DatasetImport {
  okRows = 0;
  nokRows = 0;
  private pending: Pending = { staged: [], texts: new Map(), nok: [] };
  private inFlight: Array<Promise<void>> = [];
  private readonly checker: RowChecker | null;
  private readonly scope: ReplaceScope = { pairs: new Map(), accounts: new Map() };
  private readonly cell = { value: undefined as unknown };
  private readonly names: string[];
  private readonly nokCollection: string;
  private batchTime: Date;
  private applied: { done: number; total: number } | null = null;

  constructor(
    readonly template: DatasetTemplate,
    private readonly ctx: DatasetImportContext,
  ) {
    this.checker = template.newRowChecker?.() ?? null;
    this.names = template.columns.map((c) => c.name);
    this.nokCollection = DATASET_COLLECTIONS[template.id].nokCollection;
    this.batchTime = ctx.now();
  }

  get collections(): readonly string[] {
    const c = DATASET_COLLECTIONS[this.template.id];
    return [...c.touched, c.nokCollection];
  }

  /** The heartbeat's message while applying (null while reading). */
  workingMessage(): string | null {
    return this.applied ? datasetMessages.applying(this.applied.done, this.applied.total) : null;
  }

  /** Forgets what an earlier run of this file staged or rejected. */
  async start(): Promise<void> {
    await Promise.all([clearStaged(this.ctx.db, this.ctx.file), this.ctx.db.collection(this.nokCollection).deleteMany({ sourceFileId: this.ctx.file })]);
    await dropStaleStaging(this.ctx.db, this.ctx.now());
  }

  /** Removes this file's staging and NOK rows (a run ended by an unreadable or stalled source). */
  async discard(): Promise<void> {
    await this.start();
  }

  get pendingRows(): number {
    return this.pending.staged.length + this.pending.nok.length;
  }

  /** Checks one non-empty row: `values` and `texts` are its cells in the template's column order. */
  accept(line: number, values: readonly CellValue[], texts: readonly string[]): void {
    const { columns } = this.template;
    let errors: string[] | null = null;
    const row: RowValues = {};
    for (let k = 0; k < columns.length; k++) {
      const problem = checkCell(columns[k].rule, values[k], texts[k], this.cell);
      if (problem !== null) (errors ??= []).push(invalid(columns[k].name, texts[k], problem));
      row[columns[k].name] = this.cell.value;
    }
    if (errors === null && this.checker) errors = this.checker(row, line);
    if (errors !== null) {
      this.pending.nok.push(this.nokDoc(line, texts, errors.join(" | ")));
      this.nokRows++;
      return;
    }
    const key = this.template.keyColumns.map((c) => keyPart(row[c])).join("|");
    this.pending.staged.push({ _id: key, line, d: this.template.toDoc(row) });
    this.pending.texts.set(key, [...texts]);
    this.collect(row);
    this.okRows++;
  }

  private collect(row: RowValues): void {
    if (this.template.id === "ledger") {
      const month = row.month as Date;
      this.scope.pairs.set(`${String(row.businessUnitID)}|${month.getTime()}`, { businessUnitID: row.businessUnitID as BusinessUnitId, month });
      const code = String(row.account);
      if (!this.scope.accounts.has(code)) {
        const [category1, category2, category3, workingCapital, fiscal] = LEDGER_ACCOUNT_COLUMNS.map((c) => row[c]);
        this.scope.accounts.set(code, {
          _id: code,
          description: `${code} - ${String(category3)}`,
          category1: category1 as Category1,
          category2: String(category2),
          category3: String(category3),
          workingCapital: Boolean(workingCapital),
          fiscal: Boolean(fiscal),
        });
      }
    } else if (this.template.id === "fiscal_items") {
      this.scope.pairs.set(`${String(row.businessUnitID)}|${String(row.year)}`, { businessUnitID: row.businessUnitID as BusinessUnitId, year: row.year as number });
    }
  }

  private nokDoc(line: number, texts: readonly string[], error: string): Record<string, unknown> {
    const doc: Record<string, unknown> = { _id: this.ctx.rowId(line) };
    for (let k = 0; k < this.names.length; k++) doc[this.names[k]] = texts[k];
    doc._lineNumber = line;
    doc.urlPath = this.ctx.urlPath;
    doc.timeStamp = this.batchTime;
    doc.Error = error;
    doc.sourceFileId = this.ctx.file;
    return doc;
  }

  /** Writes the pending rows (at most MAX_WRITES_IN_FLIGHT batches at once); `step` keeps the wait interruptible. */
  async flush(step: Step): Promise<void> {
    const batch = this.pending;
    this.pending = { staged: [], texts: new Map(), nok: [] };
    this.batchTime = this.ctx.now();
    if (this.inFlight.length >= MAX_WRITES_IN_FLIGHT) await step(this.inFlight.shift()!);
    const write = this.write(batch);
    write.catch(() => undefined); // awaited later
    this.inFlight.push(write);
  }

  private async write(batch: Pending): Promise<void> {
    if (this.template.id === "fiscal_items") await this.resolveFiles(batch);
    const duplicates = await stageRows(this.ctx.db, this.ctx.file, batch.staged);
    for (const { row, otherLine } of duplicates) {
      const texts = batch.texts.get(row._id) ?? [];
      batch.nok.push(this.nokDoc(row.line, texts, invalid(this.template.keyColumns[0], texts[this.names.indexOf(this.template.keyColumns[0])] ?? "", datasetMessages.duplicate(this.template.keyColumns, otherLine))));
      this.okRows--;
      this.nokRows++;
    }
    if (batch.nok.length > 0) await insertIgnoringDuplicateIds(this.ctx.db, this.nokCollection, batch.nok);
  }

  /** Fiscal items name their worksheet and document by the repository's original names: those become stored files. */
  private async resolveFiles(batch: Pending): Promise<void> {
    const names = batch.staged.flatMap((r) => [String(r.d.worksheet), String(r.d.document)]);
    const files = await resolveRepositoryFiles(this.ctx.db, names);
    const kept: StagedRow[] = [];
    for (const row of batch.staged) {
      const worksheet = files.get(String(row.d.worksheet));
      const document = files.get(String(row.d.document));
      if (worksheet && document) {
        row.d.worksheet = worksheet;
        row.d.document = document;
        kept.push(row);
        continue;
      }
      const texts = batch.texts.get(row._id) ?? [];
      const errors = [
        ...(worksheet ? [] : [invalid("worksheet_file", String(row.d.worksheet), datasetMessages.fileNotFound)]),
        ...(document ? [] : [invalid("document_file", String(row.d.document), datasetMessages.fileNotFound)]),
      ];
      batch.nok.push(this.nokDoc(row.line, texts, errors.join(" | ")));
      this.okRows--;
      this.nokRows++;
    }
    batch.staged = kept;
  }

  /** Waits for every write, then applies the file or refuses it. The outcome's status and message. */
  async finish(step: Step, onApplyProgress: () => void): Promise<{ status: number; message: string }> {
    await this.flush(step);
    const writes = this.inFlight;
    this.inFlight = [];
    await step(Promise.all(writes));
    if (this.okRows + this.nokRows === 0) {
      await step(this.start());
      return { status: FILE_STATUS_REJECTED, message: datasetMessages.noRows() };
    }
    if (this.nokRows > 0) {
      await step(clearStaged(this.ctx.db, this.ctx.file));
      await step(noteDataChanged([this.nokCollection], this.ctx.db));
      return { status: FILE_STATUS_REJECTED, message: datasetMessages.rejected(this.okRows, this.nokRows, this.nokCollection) };
    }
    this.applied = { done: 0, total: this.okRows };
    const meta = { db: this.ctx.db, file: this.ctx.file, user: this.ctx.user, now: this.ctx.now() };
    const result = await applyStaged(this.template.id, this.scope, meta, step, (done) => {
      this.applied = { done, total: this.okRows };
      onApplyProgress();
    });
    await step(clearStaged(this.ctx.db, this.ctx.file));
    await step(noteDataChanged(this.collections, this.ctx.db));
    const message =
      this.template.id === "ledger"
        ? datasetMessages.replaced(this.okRows, result, "pares (empresa, mês)")
        : this.template.id === "fiscal_items"
          ? datasetMessages.replaced(this.okRows, result, "pares (empresa, ano)")
          : datasetMessages.upserted(this.okRows, result);
    return { status: 0, message };
  }

  /** Waits for the writes in flight, ignoring their failures (the run is ending anyway). */
  async settle(): Promise<void> {
    const writes = this.inFlight;
    this.inFlight = [];
    await Promise.allSettled(writes);
  }
}

/** A key part: a month as YYYY-MM, anything else as its text. */
function keyPart(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 7);
  return String(value ?? "");
}

async function insertIgnoringDuplicateIds(db: Db, collection: string, docs: Record<string, unknown>[]): Promise<void> {
  try {
    await db.collection(collection).insertMany(docs, { ordered: false });
  } catch (error) {
    const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
    const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
    if (list.length === 0 || !list.every((e: { code?: number }) => e.code === 11000)) throw error;
  }
}
