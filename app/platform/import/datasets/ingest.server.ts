import type { Db, ObjectId } from "mongodb";
import { noteDataChanged } from "~/models/dashboard-cache.server";
import { repositoryFilesNamed } from "~/models/fiscal.server";
import { inForecastScope } from "~/models/forecast-readers.server";
import { inBranchScope } from "~/models/hr.server";
import { insertIgnoringDuplicates } from "~/models/upload-rows.server";
import { countOf } from "~/shared/excel/count-text";
import type { CellValue } from "~/shared/excel/values";
import { formatCount } from "~/shared/excel/values";
import { ExampleRows, exampleRowTexts, exampleValues, isExampleRecord } from "../example-row";
import { invalid } from "../rules";
import { LeaseLostError } from "../target-job.server";
import {
  type ChangeGuard,
  checkRow,
  type DatasetTemplate,
  type ReplaceScope,
  type RowChecker,
  type RowValues,
} from "../template";
import { uploadRightsTexts } from "../texts";
import type { UploadRowScope } from "../upload-rights.server";
import {
  type ApplyResult,
  applySpooled,
  DATASET_COLLECTIONS,
  holdsNoneOf,
  looksKeysUp,
  type Step,
} from "./apply.server";
import { RowSpool, type SpooledRow } from "./spool.server";

/**
 * One file of an all-or-nothing template, from its rows to the business collection:
 *
 * 1. a row identical to the template's example (../example-row.ts) is counted and skipped, neither OK nor NOK;
 *    each other row is checked (cell rules, the template's checks across columns and rows, then whether its uploader
 *    may write it: an HR row's branch, a forecast row's cost centre, upload-rights.server.ts); a valid row goes to the
 *    run's spool (spool.server.ts) with its key, an invalid one to the NOK collection with its line and Error; a key
 *    that an earlier line of the file already holds is a duplicate, NOK too;
 * 2. at the end, a file with any NOK row (or none at all) applies nothing; a file without is applied from the spool
 *    in batches (apply.server.ts). The spool is removed either way.
 *
 * The NOK rows of a file are removed first, so a re-run starts clean; the apply is idempotent, so a run cut short while
 * applying is repaired by the next.
 */

/** The job status of a file refused as a whole (rows broke the rules, or none to apply): nothing applied. */
export const FILE_STATUS_REJECTED = 4;

const MAX_WRITES_IN_FLIGHT = 2;
/** Up to this many distinct values of a key's first field, a file's apply first asks whether any row is stored. */
const FRESH_CHECK_MAX_VALUES = 10_000;

export const datasetMessages = {
  rejected: (ok: number, nok: number, nokCollection: string, examples: ExampleRows = new ExampleRows()) =>
    `${countOf(ok, "linha OK", "linhas OK")}, ${formatCount(nok)} NOK${exampleRowTexts.suffix(examples)}; nada foi aplicado: o arquivo só é aplicado quando todas as linhas são válidas. Corrija as linhas listadas na base ${nokCollection} e envie de novo.`,
  noRows: () => "Nenhuma linha de dados abaixo do cabeçalho: nada foi aplicado.",
  applying: (done: number, total: number) => `Aplicando: ${formatCount(done)} de ${countOf(total, "linha", "linhas")}`,
  upserted: (ok: number, r: ApplyResult, examples: ExampleRows = new ExampleRows()) =>
    `${countOf(ok, "linha OK", "linhas OK")}, 0 NOK${exampleRowTexts.suffix(examples)}. Aplicado: ${countOf(r.inserted, "nova", "novas")}, ${countOf(r.updated, "alterada", "alteradas")}, ${formatCount(r.unchanged)} sem alteração.`,
  /** `pair`: what a pair is, e.g. "(empresa, mês)". */
  replaced: (ok: number, r: ApplyResult, pair: string, examples: ExampleRows = new ExampleRows()) =>
    `${countOf(ok, "linha OK", "linhas OK")}, 0 NOK${exampleRowTexts.suffix(examples)}. Aplicado: ${countOf(r.pairs, `par ${pair} substituído`, `pares ${pair} substituídos`)} (${countOf(r.removed, "linha removida", "linhas removidas")}, ${countOf(r.inserted, "gravada", "gravadas")}).`,
  duplicate: (keyColumns: readonly string[], otherLine: number) =>
    `linha duplicada: a linha ${otherLine} tem os mesmos ${keyColumns.join(", ")}`,
  fileNotFound: "arquivo não encontrado no repositório (/repo/format); envie-o antes por /captura/manual",
};

type Pending = { spooled: SpooledRow[]; texts: Map<SpooledRow, string[]>; nok: Record<string, unknown>[] };

export type DatasetImportContext = {
  db: Db;
  file: ObjectId;
  user: string;
  urlPath: string;
  now: () => Date;
  rowId: (line: number) => ObjectId;
  /**
   * The rows its uploader may write (upload-rights.server.ts grantUpload): an HR row of another branch, a forecast row
   * of a cost centre the uploader may not write, is NOK with its reason.
   */
  rows?: UploadRowScope;
  /**
   * Called once the file is checked, just before its first write to business data (the job records it: a job given up
   * after it may have left part of the file applied). Throws when the apply must not start (the claim was lost).
   */
  beginApply?: () => Promise<void>;
  /**
   * Whether the run still holds its job (file-jobs.server.ts holdsClaim), asked before each batch written and before
   * rows are removed: a claimer that lost the job (paused past its lease) must not write to or clear the file's rows.
   */
  stillHeld?: () => Promise<boolean>;
};

export class DatasetImport {
  okRows = 0;
  nokRows = 0;
  /** Rows identical to the template's example: skipped, named in the message. */
  readonly exampleRows = new ExampleRows();
  private readonly example: readonly unknown[];
  private pending: Pending = { spooled: [], texts: new Map(), nok: [] };
  private inFlight: Array<Promise<void>> = [];
  private readonly checker: RowChecker | null;
  private readonly scope: ReplaceScope = { pairs: new Map(), accounts: new Map() };
  /** Whether the file's rows may change what they name now (the template's changeGuard: the forecast's locks). */
  private readonly guard: ChangeGuard | null;
  /** The current row's values as stored, in column order (reused). */
  private readonly stored: unknown[];
  private readonly names: string[];
  private readonly nokCollection: string;
  private batchTime: Date;
  private applied: { done: number; total: number } | null = null;
  private spool: RowSpool | null = null;
  /** The line of each key read so far (a later line with the same key is a duplicate). */
  private readonly lineOfKey = new Map<string, number>();
  /**
   * The distinct values of the key's first field, for the templates whose apply looks keys up (null for the others,
   * and past FRESH_CHECK_MAX_VALUES): is the file all new rows?
   */
  private firstKeyValues: Map<string, unknown> | null;

  constructor(
    readonly template: DatasetTemplate,
    private readonly ctx: DatasetImportContext,
  ) {
    this.checker = template.load.newRowChecker?.() ?? null;
    this.guard = template.load.changeGuard?.() ?? null;
    this.stored = new Array(template.columns.length);
    this.firstKeyValues = looksKeysUp(template.id) ? new Map() : null;
    this.names = template.columns.map((c) => c.name);
    this.example = exampleValues(template.id);
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

  /** Forgets what an earlier run of this file rejected, and opens this run's spool. */
  async start(): Promise<void> {
    await this.clearNok();
    this.spool = await RowSpool.create(this.ctx.file);
  }

  private async clearNok(): Promise<void> {
    if (this.ctx.stillHeld && !(await this.ctx.stillHeld())) return;
    await this.ctx.db.collection(this.nokCollection).deleteMany({ sourceFileId: this.ctx.file });
  }

  /** Removes this run's spool and the file's NOK rows (a run ended by an unreadable or stalled source). */
  async discard(): Promise<void> {
    await this.removeSpool();
    await this.clearNok();
  }

  private async removeSpool(): Promise<void> {
    const spool = this.spool;
    this.spool = null;
    await spool?.remove();
  }

  get pendingRows(): number {
    return this.pending.spooled.length + this.pending.nok.length;
  }

  /** Checks one non-empty row: `values` and `texts` are its cells in the template's column order. */
  accept(line: number, values: readonly CellValue[], texts: readonly string[]): void {
    const { names, stored } = this;
    let errors = checkRow(this.template, values, texts, stored);
    const row: RowValues = {};
    for (let k = 0; k < names.length; k++) row[names[k]] = stored[k];
    // Before the checks across rows: the example takes no key and no part in them.
    if (errors === null && isExampleRecord(this.example, row, this.names)) {
      this.exampleRows.note(line);
      return;
    }
    if (errors === null && this.checker) errors = this.checker(row, line);
    if (errors === null) errors = this.outsideRowScope(row, texts);
    let key = "";
    if (errors === null) {
      key = this.template.load.keyColumns.map((c) => keyPart(row[c])).join("|");
      const otherLine = this.lineOfKey.get(key);
      if (otherLine === undefined) this.lineOfKey.set(key, line);
      else {
        const first = this.template.load.keyColumns[0];
        errors = [
          invalid(
            first,
            texts[this.names.indexOf(first)] ?? "",
            datasetMessages.duplicate(this.template.load.keyColumns, otherLine),
          ),
        ];
      }
    }
    if (errors !== null) {
      this.pending.nok.push(this.nokDoc(line, texts, errors.join(" | ")));
      this.nokRows++;
      return;
    }
    const spooled: SpooledRow = { key, line, doc: this.template.load.toDoc(row) };
    this.pending.spooled.push(spooled);
    if (this.firstKeyValues) this.noteFirstKeyValue(spooled.doc[this.template.load.keyColumns[0]]);
    if (this.template.id === "fiscal_items") this.pending.texts.set(spooled, [...texts]);
    this.collect(row);
    this.okRows++;
  }

  /** Why the uploader may not write this row (its branch, its cost centre), or null when they may. */
  private outsideRowScope(row: RowValues, texts: readonly string[]): string[] | null {
    const scope = this.ctx.rows;
    if (!scope) return null;
    if (this.template.id === "hr_aux" && !inBranchScope(String(row.filial_nome), scope.branches))
      return [
        invalid("filial_nome", texts[this.names.indexOf("filial_nome")] ?? "", uploadRightsTexts.outsideBranchScope),
      ];
    // The forecast's one write rule (app/models/forecast-readers.server.ts forecastWriteScopeOf), as on the review.
    if (this.template.id === "forecast" && !inForecastScope(scope.costCentres, String(row.cost_center_concat)))
      return [uploadRightsTexts.notYourCostCentre(String(row.cost_center_concat))];
    return null;
  }

  private noteFirstKeyValue(value: unknown): void {
    const values = this.firstKeyValues!;
    const text = value instanceof Date ? `d${value.getTime()}` : `s${String(value)}`;
    if (values.has(text)) return;
    if (values.size >= FRESH_CHECK_MAX_VALUES) this.firstKeyValues = null;
    else values.set(text, value);
  }

  /** What the file's valid rows tell the template's guard and, for a replace, its scope. */
  private collect(row: RowValues): void {
    this.guard?.note(row);
    this.template.load.collectScope?.(row, this.scope);
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
    this.pending = { spooled: [], texts: new Map(), nok: [] };
    this.batchTime = this.ctx.now();
    if (this.inFlight.length >= MAX_WRITES_IN_FLIGHT) await step(this.inFlight.shift()!);
    if (this.ctx.stillHeld && !(await step(this.ctx.stillHeld()))) throw new LeaseLostError();
    const write = this.write(batch);
    write.catch(() => undefined); // awaited later
    this.inFlight.push(write);
  }

  private async write(batch: Pending): Promise<void> {
    if (this.template.id === "fiscal_items") await this.resolveFiles(batch);
    // Once a row is NOK nothing will be applied: the valid rows after it need not be spooled.
    const spooling = this.nokRows === 0 && this.spool ? this.spool.append(batch.spooled) : Promise.resolve();
    await Promise.all([
      spooling,
      batch.nok.length > 0
        ? insertIgnoringDuplicates(this.ctx.db.collection(this.nokCollection), batch.nok)
        : undefined,
    ]);
  }

  /** Fiscal items name their worksheet and document by the repository's original names: those become stored files. */
  private async resolveFiles(batch: Pending): Promise<void> {
    const names = batch.spooled.flatMap((r) => [String(r.doc.worksheet), String(r.doc.document)]);
    const files = await repositoryFilesNamed(names, this.ctx.db);
    const kept: SpooledRow[] = [];
    for (const row of batch.spooled) {
      const worksheet = files.get(String(row.doc.worksheet));
      const document = files.get(String(row.doc.document));
      if (worksheet && document) {
        row.doc.worksheet = worksheet;
        row.doc.document = document;
        kept.push(row);
        continue;
      }
      const texts = batch.texts.get(row) ?? [];
      const errors = [
        ...(worksheet ? [] : [invalid("worksheet_file", String(row.doc.worksheet), datasetMessages.fileNotFound)]),
        ...(document ? [] : [invalid("document_file", String(row.doc.document), datasetMessages.fileNotFound)]),
      ];
      batch.nok.push(this.nokDoc(row.line, texts, errors.join(" | ")));
      this.okRows--;
      this.nokRows++;
    }
    batch.spooled = kept;
  }

  /** Waits for every write, then applies the file or refuses it. The outcome's status and message. */
  async finish(step: Step, onApplyProgress: () => void): Promise<{ status: number; message: string }> {
    await this.flush(step);
    const writes = this.inFlight;
    this.inFlight = [];
    await step(Promise.all(writes));
    if (this.okRows + this.nokRows === 0) {
      await step(this.discard());
      return {
        status: FILE_STATUS_REJECTED,
        message:
          this.exampleRows.count > 0 ? exampleRowTexts.only(this.exampleRows, "aplicado") : datasetMessages.noRows(),
      };
    }
    if (this.nokRows > 0) {
      await step(this.removeSpool());
      await step(noteDataChanged([this.nokCollection], this.ctx.db));
      return {
        status: FILE_STATUS_REJECTED,
        message: datasetMessages.rejected(this.okRows, this.nokRows, this.nokCollection, this.exampleRows),
      };
    }
    if (this.guard) {
      const refusal = await step(this.guard.refusal(this.ctx.db, this.ctx.now()));
      if (refusal) {
        await step(this.removeSpool());
        return { status: FILE_STATUS_REJECTED, message: refusal };
      }
    }
    this.lineOfKey.clear(); // every key is checked: the apply needs none of them (~90 MB at 300,000 rows)
    this.applied = { done: 0, total: this.okRows };
    const fresh =
      this.firstKeyValues !== null &&
      (await step(holdsNoneOf(this.ctx.db, this.template, [...this.firstKeyValues.values()])));
    const meta = { db: this.ctx.db, file: this.ctx.file, user: this.ctx.user, now: this.ctx.now(), fresh };
    if (!this.spool) throw new Error("DatasetImport.finish before start");
    if (this.ctx.beginApply) await step(this.ctx.beginApply());
    const result = await applySpooled(this.template.id, this.spool, this.scope, meta, step, (done) => {
      this.applied = { done, total: this.okRows };
      onApplyProgress();
    });
    await step(this.removeSpool());
    await step(noteDataChanged(this.collections, this.ctx.db));
    const message =
      this.template.id === "ledger"
        ? datasetMessages.replaced(this.okRows, result, "(empresa, mês)", this.exampleRows)
        : this.template.id === "fiscal_items"
          ? datasetMessages.replaced(this.okRows, result, "(empresa, ano)", this.exampleRows)
          : datasetMessages.upserted(this.okRows, result, this.exampleRows);
    return { status: 0, message };
  }

  /** Waits for the writes in flight, ignoring their failures (the run is ending anyway), and removes the spool. */
  async settle(): Promise<void> {
    const writes = this.inFlight;
    this.inFlight = [];
    await Promise.allSettled(writes);
    await this.removeSpool().catch(() => undefined);
  }
}

/** A key part: a month as YYYY-MM, anything else as its text. */
function keyPart(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 7);
  return String(value ?? "");
}
