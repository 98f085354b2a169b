import type { Readable } from "node:stream";
import type { SourceRow } from "xlsx-reader";
import { canAccessRoute } from "~/access";
import { accessContext } from "~/config.server";
import { type JobClaim, recordFileClass } from "~/models/file-jobs.server";
import type { FileClassification, FileDataClass } from "~/models/files.fields";
import { fileClassOfObject } from "~/models/files.server";
import { type BranchScope, branchScopeOf, inBranchScope } from "~/models/hr.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { contentDisposition } from "~/services/storage/s3.server";
import { extensionOf, openReadStream } from "~/services/storage.server";
import { ThreadBusyError } from "~/shared/bounded-thread.server";
import { maskCpfsInText, maskCpfValue } from "~/shared/cpf";
import { csvCell } from "~/shared/csv";
import { formatCalendarDate } from "~/shared/dates";
import { ID_HEADER, ORIGINAL_HEADER, portalHeaderOf, REVISION_HEADER } from "~/shared/excel/round-trip.server";
import { type CellValue, cellText } from "~/shared/excel/values";
import { readXlsxRowsOnThread } from "~/shared/excel/xlsx-thread.server";
import { classifyRows } from "./file-class.server";
import { readCsvBatches } from "./readers.server";
import { detectTemplate } from "./registry";
import { normalizeHeader } from "./template";
import { exportedFileTexts } from "./texts";

/**
 * HR data in stored files. Each file has a class (files.fields.ts FileDataClass), decided when it is stored: by the
 * path that stored it (the HR grid's queued round trip), by the worker as it takes the job (classifyClaimedFile, the
 * rule of file-class.server.ts) and by what the worker read it as. A file stored before classes existed, or not yet
 * taken by a worker, is classified at its first read with the same rule and keeps that class.
 *
 * An HR file leaves the portal as /ij/rh shows that data: only the rows of the viewer's branches, every CPF masked,
 * whoever uploaded it, whatever its header. Every signed download link (`/download/{token}`: the repository list,
 * the master-data file names, the report screens' downloads of an upload) asks `hrFileView` first; the refused rows
 * of an HR file are scoped and masked the same way (nok-rows.server.ts seenNokFile).
 */

/**
 * The rows of a stored CSV, TXT or XLSX and the stream under them; null for any other format. `signal` ends an XLSX
 * read, or its wait for a reading thread.
 */
async function openRows(
  bucket: string,
  key: string,
  signal?: AbortSignal,
): Promise<{ rows: AsyncGenerator<SourceRow>; stream: Readable } | null> {
  const ext = extensionOf(key);
  if (ext !== "csv" && ext !== "txt" && ext !== "xlsx") return null;
  const { stream } = await openReadStream(bucket, key);
  const rows = ext === "xlsx" ? readXlsxRowsOnThread(stream, { signal }) : flatten(readCsvBatches(stream));
  return { rows, stream };
}

/**
 * What a stored object holds, from its first rows (file-class.server.ts). A spreadsheet that cannot be read is HR:
 * nothing says it holds no CPF. A storage failure (the object missing, the store down) or no reading thread free in
 * time (ThreadBusyError) is thrown, never a class.
 */
export async function classifyStoredObject(
  bucket: string,
  key: string,
  signal?: AbortSignal,
): Promise<FileClassification> {
  const opened = await openRows(bucket, key, signal);
  if (!opened) return { dataClass: "plain", by: "not-rows" };
  const stop = () => opened.stream.destroy(new Error("classification given up"));
  signal?.addEventListener("abort", stop, { once: true });
  try {
    return await classifyRows(opened.rows);
  } catch (error) {
    if (signal?.aborted) throw new Error("classification given up");
    if (error instanceof ThreadBusyError) throw error;
    return { dataClass: "hr", by: "unreadable" };
  } finally {
    signal?.removeEventListener("abort", stop);
    await close(opened.rows, opened.stream);
  }
}

/**
 * The class that decides how a stored object leaves: the one its record holds (`known`, when the caller read it);
 * a record without one is classified now and keeps it; an object that no upload names is classified for this read.
 * When the object cannot be read to classify it (gone, the store down), it is HR for this read: nothing is recorded.
 */
export async function storedFileClass(object: {
  bucket: string;
  key: string;
  known?: FileDataClass | null;
}): Promise<FileDataClass> {
  if (object.known) return object.known;
  const record = await fileClassOfObject(object.bucket, object.key);
  if (record?.dataClass) return record.dataClass;
  let found: FileClassification;
  try {
    found = await classifyStoredObject(object.bucket, object.key);
  } catch {
    return "hr";
  }
  return record ? recordFileClass(record.id, found) : found.dataClass;
}

/** Longest the worker spends classifying a file before it moves on (its first read then classifies it). */
const CLASSIFY_TIMEOUT_MS = 30_000;

/**
 * The worker's part, before it reads the file for a template: a file the path that stored it did not classify is
 * classified now. Never fails the job: a file left unclassified is classified at its first read.
 */
export async function classifyClaimedFile(claim: JobClaim): Promise<void> {
  if (claim.dataClass) return;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), CLASSIFY_TIMEOUT_MS);
  timer.unref?.();
  try {
    await recordFileClass(claim.id, await classifyStoredObject(claim.bucket, claim.originalFile, abort.signal));
  } catch {
    // left for the first read
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The answer for an HR file, or null when the stored object is not one (then it is downloaded as stored). `signal`:
 * the download's request; given up, an XLSX read (or its wait for a reading thread) ends.
 */
export async function hrFileView(
  grant: { bucket: string; key: string; filename: string },
  viewer: Pick<AuthenticatedUser, "email" | "type">,
  signal?: AbortSignal,
): Promise<Response | null> {
  if ((await storedFileClass(grant)) !== "hr") return null;
  // Who may not read the HR grid gets no HR file from a link either.
  if (!canAccessRoute(viewer.type, "routes/ij.rh", accessContext())) throw new Response(null, { status: 403 });
  const opened = await openRows(grant.bucket, grant.key, signal);
  // An HR file the portal cannot read as rows is not handed out at all.
  if (!opened) throw new Response(null, { status: 403 });
  const { rows, stream } = opened;
  let layout: HrFileLayout;
  try {
    layout = hrFileLayout(await firstFilledRow(rows));
  } catch (error) {
    await close(rows, stream);
    throw error;
  }
  const scope = await branchScopeOf(viewer.email);
  return new Response(hrCsvStream(rows, stream, layout, scope), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": contentDisposition(exportedFileTexts.hrFileName(grant.filename)),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

async function firstFilledRow(rows: AsyncGenerator<SourceRow>): Promise<readonly CellValue[] | null> {
  for (;;) {
    const next = await rows.next();
    if (next.done) return null;
    if (!next.value.cells.every((c) => cellText(c) === "")) return next.value.cells;
  }
}

/**
 * How an HR file's rows become the view's: which source cells are shown (`indexes`, under `columns`), which holds
 * the branch, which are CPFs (masked whole), and the branch an HR export's hidden scope names.
 */
type HrFileLayout = {
  columns: readonly string[];
  indexes: readonly number[];
  branch: number;
  cpf: ReadonlySet<number>;
  exportBranch: string | null;
};

/** The headers that name a row's branch: the HR template's column and the HR grid export's ("Filial"). */
const BRANCH_HEADERS: ReadonlySet<string> = new Set(["filial_nome", "filial"]);
/** The hidden columns of an Excel round trip: for the portal, not for a reader. */
const HIDDEN_HEADERS: ReadonlySet<string> = new Set([ID_HEADER, REVISION_HEADER, ORIGINAL_HEADER]);

function hrFileLayout(header: readonly CellValue[] | null): HrFileLayout {
  if (!header) return { columns: [], indexes: [], branch: -1, cpf: new Set(), exportBranch: null };
  const template = detectTemplate(header);
  if (template?.template.id === "hr_aux") {
    const columns = template.template.columns.map((c) => c.name);
    const cpf = columns.indexOf("cpf");
    return {
      columns,
      indexes: template.indexes,
      branch: columns.indexOf("filial_nome"),
      cpf: new Set([cpf]),
      exportBranch: null,
    };
  }
  // Any other layout: its columns as the file has them, but the round trip's hidden ones.
  const columns: string[] = [];
  const indexes: number[] = [];
  let exportBranch: string | null = null;
  header.forEach((cell, index) => {
    const text = cellText(cell).trim();
    const portal = portalHeaderOf(text);
    if (portal) exportBranch = portal.scope.get("filial");
    if (portal || HIDDEN_HEADERS.has(text)) return;
    columns.push(text);
    indexes.push(index);
  });
  const names = columns.map(normalizeHeader);
  const cpf = new Set(names.flatMap((n, k) => (/cpf/.test(n) ? [k] : [])));
  return { columns, indexes, branch: names.findIndex((n) => BRANCH_HEADERS.has(n)), cpf, exportBranch };
}

async function* flatten(batches: AsyncGenerator<SourceRow[]>): AsyncGenerator<SourceRow> {
  for await (const batch of batches) yield* batch;
}

async function close(rows: AsyncGenerator<SourceRow>, stream: Readable): Promise<void> {
  stream.destroy();
  await rows.return(undefined).catch(() => undefined);
}

const ROWS_PER_CHUNK = 500;

/**
 * Whether a row of the file is one the scope sees: every row for a scope of all branches; for a store-limited one,
 * only a row whose branch is one of its stores (and, in an HR export, whose exported branch is too). A row that names
 * no branch is no branch's: a store-limited account does not get it.
 */
function rowInScope(cells: readonly string[], layout: HrFileLayout, scope: BranchScope): boolean {
  if (scope.kind === "all") return true;
  if (layout.branch < 0 || !inBranchScope(cells[layout.branch], scope)) return false;
  return layout.exportBranch === null || inBranchScope(layout.exportBranch, scope);
}

/** A row's cells as the view shows them: a CPF column masked whole, any CPF typed elsewhere masked in place. */
function shownCells(source: readonly CellValue[], texts: readonly string[], layout: HrFileLayout): string[] {
  return texts.map((text, k) => {
    if (text === "") return text;
    const value = source[layout.indexes[k]];
    // A date cell names a day (stored as midnight UTC): shown as the portal writes a day.
    if (value instanceof Date) return formatCalendarDate(value);
    if (layout.cpf.has(k)) return String(maskCpfValue(value));
    return maskCpfsInText(text);
  });
}

function hrCsvStream(
  rows: AsyncGenerator<SourceRow>,
  source: Readable,
  layout: HrFileLayout,
  scope: BranchScope,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const line = (cells: readonly string[]) => `${cells.map((cell) => csvCell(cell)).join(";")}\r\n`;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let text = headerSent ? "" : `\uFEFF${line(layout.columns)}`;
        headerSent = true;
        for (let n = 0; n < ROWS_PER_CHUNK; n++) {
          const next = await rows.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          const cells = layout.indexes.map((i) => cellText(next.value.cells[i]).trim());
          if (cells.every((c) => c === "") || !rowInScope(cells, layout, scope)) continue;
          text += line(shownCells(next.value.cells, cells, layout));
        }
        controller.enqueue(encoder.encode(text));
      } catch (error) {
        await close(rows, source);
        controller.error(error);
      }
    },
    async cancel() {
      await close(rows, source);
    },
  });
}
