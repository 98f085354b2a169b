import crypto from "node:crypto";
import path from "node:path";
import { PassThrough, Transform } from "node:stream";
import type JSZip from "jszip";
import {
  FileRefusedError,
  limitBytes,
  readXlsxRows,
  refusalMessages,
  type SourceRow,
  UnreadableFileError,
  XLSX_LIMITS,
} from "xlsx-reader";
import type { JobEnding } from "~/models/file-jobs.server";
import { FILE_STATUS_UNKNOWN_LAYOUT, FILE_STATUS_UNREADABLE, type JobClaim } from "~/models/file-jobs.server";
import { FILE_STATUS_OK } from "~/models/files.server";
import {
  REPORT_ORIGINS,
  type ReportEntry,
  type ReportNokRow,
  type ReportOrigin,
  replaceReportNokRows,
  upsertReportEntries,
} from "~/models/reports.server";
import {
  deleteObject,
  extensionOf,
  getLocalStore,
  getS3Store,
  LOCAL_BUCKET,
  objectUrlPath,
  uploadLimits,
} from "~/services/storage.server";
import { type CellValue, cellText, parseDate } from "~/shared/excel/values";
import { readCsvBatches } from "./readers.server";
import {
  LeaseLostError,
  megabytes,
  readWholeSource,
  SourceTooLargeError,
  startTargetJob,
  type TargetJob,
  type TargetJobOptions,
} from "./target-job.server";
import { reportBundleTexts as t } from "./texts";

/**
 * A report package uploaded through /captura/manual: a ZIP holding the manifest `relatorios.csv` or
 * `relatorios.xlsx` and the files it names. Manifest columns (header row, any order and case; others ignored):
 *   name     required, up to 200 characters: the report's name in /ij/report
 *   origin   automatico or manual (accents and case ignored); empty → manual
 *   dateRef  required competency month, 12/1950 to 12/2030: AAAA-MM, MM/AAAA, AAAA-MM-DD, DD/MM/AAAA or an XLSX date
 *   file     required: the file's path in the ZIP, relative to the manifest's folder (pdf, xlsx, xls, docx, csv, txt)
 * All or nothing per package: every row is checked first (and its file looked up); one refused row, a duplicate key
 * or a missing file refuses the package (status 3; the refused rows go to `reports_nok` with line and Error) and
 * nothing is stored. Otherwise each file is copied into the store under `documents/reports/<package id>/…` (a prefix
 * the upload sweeper leaves alone) and each row upserts its report by (name, origin, dateRef) — a known key gets the
 * new file and the replaced entry's own file is removed. No manifest, a manifest without the required columns, or
 * one without rows: status 2.
 */

export const MANIFEST_NAMES = ["relatorios.csv", "relatorios.xlsx"] as const;
export const REPORT_FILE_EXTENSIONS = ["pdf", "xlsx", "xls", "docx", "csv", "txt"] as const;
/** Formats the portal's viewer opens: their entries get an online copy (`url`), the others are download-only. */
const VIEWABLE = new Set(["pdf", "xlsx", "docx"]);
/** The largest package read into memory (a ZIP is read from its central directory at the end). */
export const BUNDLE_MAX_BYTES = 200 * 1024 * 1024;
export const REPORT_NAME_MAX = 200;
/**
 * What a package may hold once unpacked: the manifest is read into memory (at most this many bytes and rows, read
 * as they inflate), and the files it names together inflate to at most BUNDLE_MAX_INFLATED_BYTES (each within the
 * upload limit). A package past them is refused (status 3), whatever sizes its directory declares.
 */
export const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;
export const MANIFEST_MAX_ROWS = 10_000;
export const BUNDLE_MAX_INFLATED_BYTES = 2 * 1024 * 1024 * 1024;
/** The prefix of the files the packages store. */
export const REPORT_FILES_PREFIX = "documents/reports/";
/** The first refused rows named in the job's message (all of them are in reports_nok). */
const ERRORS_IN_MESSAGE = 3;

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();

const FIRST_MONTH = Date.UTC(1950, 11, 1);
const LAST_MONTH = Date.UTC(2030, 11, 1);

/** A competency month (first day, UTC) from the forms the manifest accepts; null otherwise or outside 12/1950–12/2030. */
export function parseCompetencyMonth(value: CellValue): Date | null {
  let year: number;
  let month: number;
  const text = value instanceof Date ? "" : cellText(value);
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(\d{1,2})$/.exec(text))) [year, month] = [+m[1], +m[2]];
  else if ((m = /^(\d{1,2})\/(\d{4})$/.exec(text))) [year, month] = [+m[2], +m[1]];
  else {
    const date = parseDate(value);
    if (!date) return null;
    [year, month] = [date.getUTCFullYear(), date.getUTCMonth() + 1];
  }
  if (month < 1 || month > 12) return null;
  const first = Date.UTC(year, month - 1, 1);
  return first < FIRST_MONTH || first > LAST_MONTH ? null : new Date(first);
}

/** `origin` as stored: automatico or manual (accents and case ignored); empty → manual; null when it is neither. */
export function parseOrigin(value: CellValue): ReportOrigin | null {
  const text = fold(cellText(value));
  if (text === "") return "manual";
  return (REPORT_ORIGINS as readonly string[]).includes(text) ? (text as ReportOrigin) : null;
}

type ZipEntry = JSZip.JSZipObject;

/** Normalised path inside the ZIP, or null when it leaves the package's root. */
function zipPath(folder: string, file: string): string | null {
  const joined = path.posix.normalize(path.posix.join(folder, file.replace(/\\/g, "/").replace(/^\/+/, "")));
  if (joined.startsWith("../") || joined === ".." || joined === ".") return null;
  return joined.replace(/^\.\//, "");
}

function uncompressedSize(entry: ZipEntry): number | null {
  const size = (entry as unknown as { _data?: { uncompressedSize?: unknown } })._data?.uncompressedSize;
  return typeof size === "number" ? size : null;
}

/** The manifest: the entries named relatorios.csv / .xlsx (outside __MACOSX), the shallowest; several there → error. */
function findManifest(zip: JSZip): { entry: ZipEntry; folder: string } | { error: string } {
  const candidates = Object.values(zip.files).filter(
    (e) =>
      !e.dir &&
      !e.name.startsWith("__MACOSX/") &&
      (MANIFEST_NAMES as readonly string[]).includes(fold(path.posix.basename(e.name))),
  );
  if (candidates.length === 0) return { error: t.noManifest };
  const depth = (e: ZipEntry) => e.name.split("/").length;
  const shallowest = Math.min(...candidates.map(depth));
  const top = candidates.filter((e) => depth(e) === shallowest);
  if (top.length > 1) return { error: t.manyManifests(top.map((e) => e.name)) };
  const folder = path.posix.dirname(top[0].name);
  return { entry: top[0], folder: folder === "." ? "" : folder };
}

/** A package's entry as a core stream (JSZip's own is a readable-stream one, not async-iterable), inflated as read. */
function entryStream(entry: ZipEntry): PassThrough {
  const inflating = entry.nodeStream("nodebuffer");
  const stream = new PassThrough();
  inflating.on("error", (error: Error) => stream.destroy(error));
  inflating.pipe(stream);
  return stream;
}

/** The manifest's rows, read as it inflates: past MANIFEST_MAX_BYTES or MANIFEST_MAX_ROWS, FileRefusedError. */
async function manifestRows(entry: ZipEntry): Promise<SourceRow[]> {
  const source = limitBytes(
    entryStream(entry),
    MANIFEST_MAX_BYTES,
    refusalMessages.part(path.posix.basename(entry.name), MANIFEST_MAX_BYTES),
  );
  const rows: SourceRow[] = [];
  const keep = (row: SourceRow) => {
    if (rows.length >= MANIFEST_MAX_ROWS + 1) throw new FileRefusedError(refusalMessages.rows(MANIFEST_MAX_ROWS));
    rows.push(row);
  };
  if (fold(entry.name).endsWith(".xlsx")) {
    const limits = {
      ...XLSX_LIMITS,
      inflatedBytes: 4 * MANIFEST_MAX_BYTES,
      sharedStringBytes: MANIFEST_MAX_BYTES,
      rows: MANIFEST_MAX_ROWS + 1,
    };
    for await (const row of readXlsxRows(source, limits)) keep(row);
  } else {
    for await (const batch of readCsvBatches(source)) batch.forEach(keep);
  }
  return rows;
}

const COLUMNS = ["name", "origin", "dateref", "file"] as const;
const REQUIRED: ReadonlyArray<(typeof COLUMNS)[number]> = ["name", "dateref", "file"];
const COLUMN_LABEL: Record<(typeof COLUMNS)[number], string> = {
  name: "name",
  origin: "origin",
  dateref: "dateRef",
  file: "file",
};

type ValidEntry = {
  line: number;
  name: string;
  origin: ReportOrigin;
  dateRef: Date;
  entry: ZipEntry;
  fileName: string;
  ext: string;
};

type RefusedEntry = Omit<ReportNokRow, "_id" | "sourceFileId" | "urlPath" | "timeStamp">;
type ManifestColumns = Record<(typeof COLUMNS)[number], number>;

/** What a package's rows are checked against: its files by path, the manifest's folder and name, the size cap. */
type PackageFiles = {
  zip: JSZip;
  byLowerName: Map<string, ZipEntry[]>;
  folder: string;
  manifestName: string;
  maxFileBytes: number;
};

/** Checks the manifest's rows against the package; every refused row with its line and Error. */
export function checkManifest(
  rows: SourceRow[],
  zip: JSZip,
  folder: string,
  manifestName: string,
  maxFileBytes: number,
): { error: string } | { valid: ValidEntry[]; refused: RefusedEntry[]; total: number } {
  const dataRows = rows.filter((r) => r.cells.some((c) => cellText(c) !== ""));
  if (dataRows.length === 0) return { error: t.empty };
  const header = dataRows[0].cells.map((c) => fold(cellText(c)));
  const index = Object.fromEntries(COLUMNS.map((c) => [c, header.indexOf(c)])) as ManifestColumns;
  const missing = REQUIRED.filter((c) => index[c] < 0);
  if (missing.length > 0) return { error: t.missingColumns(missing.map((c) => COLUMN_LABEL[c])) };
  if (dataRows.length === 1) return { error: t.empty };

  const byLowerName = new Map<string, ZipEntry[]>();
  for (const e of Object.values(zip.files))
    if (!e.dir) byLowerName.set(e.name.toLowerCase(), [...(byLowerName.get(e.name.toLowerCase()) ?? []), e]);
  const files: PackageFiles = { zip, byLowerName, folder, manifestName, maxFileBytes };
  const seen = new Map<string, number>();
  const valid: ValidEntry[] = [];
  const refused: RefusedEntry[] = [];
  for (const row of dataRows.slice(1)) {
    const checked = checkManifestRow(row, index, files, seen);
    if ("Error" in checked) refused.push(checked);
    else valid.push(checked);
  }
  return { valid, refused, total: dataRows.length - 1 };
}

/** One row of the manifest: its entry, or the row refused with every rule it breaks. `seen`: the keys read so far. */
function checkManifestRow(
  row: SourceRow,
  index: ManifestColumns,
  files: PackageFiles,
  seen: Map<string, number>,
): ValidEntry | RefusedEntry {
  const cell = (c: (typeof COLUMNS)[number]) => (index[c] >= 0 ? row.cells[index[c]] : null);
  const texts = {
    name: cellText(cell("name")),
    origin: cellText(cell("origin")),
    dateRef: cellText(cell("dateref")),
    file: cellText(cell("file")),
  };
  const errors: string[] = [];
  if (texts.name === "") errors.push(t.invalid("name", texts.name, t.required));
  else if (texts.name.length > REPORT_NAME_MAX) errors.push(t.invalid("name", texts.name, t.tooLong(REPORT_NAME_MAX)));
  const origin = parseOrigin(cell("origin"));
  if (!origin) errors.push(t.invalid("origin", texts.origin, t.origins));
  const dateRef = parseCompetencyMonth(cell("dateref"));
  if (!dateRef) errors.push(t.invalid("dateRef", texts.dateRef, texts.dateRef === "" ? t.required : t.month));
  const ext = extensionOf(texts.file);
  const entry = packageEntry(texts.file, ext, files, errors);
  if (errors.length === 0 && origin && dateRef) {
    const key = `${origin}|${dateRef.getTime()}|${texts.name}`;
    const other = seen.get(key);
    if (other !== undefined) errors.push(t.invalid("name", texts.name, t.duplicate(other)));
    else seen.set(key, row.line);
  }
  if (errors.length > 0 || !origin || !dateRef || !entry)
    return { ...texts, _lineNumber: row.line, Error: errors.join(" | ") };
  const fileName = path.posix.basename(entry.name);
  return { line: row.line, name: texts.name, origin, dateRef, entry, fileName, ext };
}

/** The package's entry a row's `file` names (by path, else its only match ignoring case); null with the reason noted. */
function packageEntry(file: string, ext: string, files: PackageFiles, errors: string[]): ZipEntry | null {
  if (file === "") {
    errors.push(t.invalid("file", file, t.required));
    return null;
  }
  if (!(REPORT_FILE_EXTENSIONS as readonly string[]).includes(ext)) {
    errors.push(t.invalid("file", file, t.fileFormat(REPORT_FILE_EXTENSIONS)));
    return null;
  }
  const wanted = zipPath(files.folder, file);
  const found = wanted === null ? null : (files.zip.files[wanted] ?? null);
  const candidates = wanted === null ? [] : (files.byLowerName.get(wanted.toLowerCase()) ?? []);
  const entry = found && !found.dir ? found : candidates.length === 1 ? candidates[0] : null;
  if (!entry || entry.name === files.manifestName) {
    errors.push(t.invalid("file", file, t.fileMissing));
    return null;
  }
  const size = uncompressedSize(entry);
  if (size !== null && size > files.maxFileBytes)
    errors.push(t.invalid("file", file, t.fileTooLarge(megabytes(files.maxFileBytes))));
  return entry;
}

/**
 * Writes one package file into the store the package came from; more than maxBytes throws (nothing kept).
 * Returns the bytes it inflated to.
 */
async function storeEntry(bucket: string, key: string, entry: ZipEntry, maxBytes: number): Promise<number> {
  let bytes = 0;
  const inflated = entryStream(entry);
  const source = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  inflated.on("error", (error: Error) => source.destroy(error));
  inflated.pipe(source);
  if (bucket === LOCAL_BUCKET) {
    await getLocalStore().putStream(key, source, { maxBytes });
    return bytes;
  }
  const store = getS3Store(bucket);
  await store.putStream(key, source, { maxBytes: Math.max(1, maxBytes) });
  await store.clearPendingTag(key); // written by the portal itself: registered at once
  return bytes;
}

/**
 * The job of a report package: the package read, its manifest read and checked against the files it holds, then (no
 * row refused) each file stored and each row's report upserted. A lost lease removes the files this run stored.
 */
export async function ingestReportBundle(claim: JobClaim, options: TargetJobOptions): Promise<JobEnding> {
  const job = await startTargetJob(claim, options);
  if (extensionOf(claim.originalFile) !== "zip") return job.finish(FILE_STATUS_UNREADABLE, t.notAZip);
  const stored: string[] = [];
  const removeStored = () => Promise.all(stored.map((key) => deleteObject(claim.bucket, key).catch(() => undefined)));
  try {
    await job.beat(1, t.reading, true);
    const zip = await openPackage(job, claim, options);
    if (!("files" in zip)) return zip;
    const manifest = findManifest(zip);
    if ("error" in manifest) return job.finish(FILE_STATUS_UNKNOWN_LAYOUT, manifest.error);
    const rows = await readManifest(job, manifest.entry);
    if (!Array.isArray(rows)) return rows;
    const maxFileBytes = uploadLimits().maxBytes;
    const checked = checkManifest(rows, zip, manifest.folder, manifest.entry.name, maxFileBytes);
    if ("error" in checked) return job.finish(FILE_STATUS_UNKNOWN_LAYOUT, checked.error);
    const refusal = await recordRefusedRows(job, claim, checked);
    if (refusal) return refusal;
    const entries = await storeEntries(job, claim, checked.valid, maxFileBytes, stored, removeStored);
    if (!Array.isArray(entries)) return entries;
    return await publish(job, claim, entries, stored, removeStored);
  } catch (error) {
    if (error instanceof LeaseLostError) {
      await removeStored();
      return { kind: "lease-lost" };
    }
    throw error;
  }
}

/** The package as a ZIP, or the job ended: too large, gone, unreadable (the storage's fault: retryable), not a ZIP. */
async function openPackage(job: TargetJob, claim: JobClaim, options: TargetJobOptions): Promise<JSZip | JobEnding> {
  let bytes: Buffer;
  try {
    bytes = await readWholeSource(claim, options, BUNDLE_MAX_BYTES);
  } catch (error) {
    if (error instanceof SourceTooLargeError)
      return job.finish(FILE_STATUS_UNREADABLE, t.tooLarge(megabytes(error.maxBytes)));
    if ((error as Error).name === "StoredObjectNotFoundError") return job.finish(FILE_STATUS_UNREADABLE, t.missing);
    // Reading the stored bytes failed (the storage's fault, not the file's): a retry may succeed.
    return job.finish(FILE_STATUS_UNREADABLE, t.unreadable((error as Error).message), 0, 0, true);
  }
  const { default: Zip } = await import("jszip");
  try {
    return await Zip.loadAsync(bytes);
  } catch {
    return job.finish(FILE_STATUS_UNREADABLE, t.notAZip);
  }
}

/** The manifest's rows, or the job ended: past its caps, or unreadable. */
async function readManifest(job: TargetJob, entry: ZipEntry): Promise<SourceRow[] | JobEnding> {
  try {
    return await manifestRows(entry);
  } catch (error) {
    if (error instanceof FileRefusedError) return job.finish(FILE_STATUS_UNREADABLE, error.message);
    return job.finish(
      FILE_STATUS_UNREADABLE,
      t.unreadable(error instanceof UnreadableFileError ? error.message : (error as Error).message),
    );
  }
}

/** The package's refused rows replace its earlier ones in reports_nok; any refuses the package (the job ended). */
async function recordRefusedRows(
  job: TargetJob,
  claim: JobClaim,
  checked: { refused: RefusedEntry[]; total: number },
): Promise<JobEnding | null> {
  const now = job.now();
  const urlPath = objectUrlPath(claim.bucket, claim.originalFile);
  await replaceReportNokRows(
    claim.id,
    checked.refused.map((r) => ({ ...r, urlPath, timeStamp: now })),
    job.db,
  );
  if (checked.refused.length === 0) return null;
  const first = checked.refused
    .slice(0, ERRORS_IN_MESSAGE)
    .map((r) => t.lineError(r._lineNumber, r.Error))
    .join(" ");
  return job.finish(
    FILE_STATUS_UNREADABLE,
    t.rejected(checked.refused.length, checked.total, first),
    0,
    checked.refused.length,
  );
}

/**
 * Each valid row's file copied into the store (its key added to `stored` first), within the package's inflation
 * budget; or, when one cannot be, everything stored removed and the job ended.
 */
async function storeEntries(
  job: TargetJob,
  claim: JobClaim,
  valid: ValidEntry[],
  maxFileBytes: number,
  stored: string[],
  removeStored: () => Promise<unknown>,
): Promise<ReportEntry[] | JobEnding> {
  const entries: ReportEntry[] = [];
  const packageId = claim.id.toHexString();
  let inflatedLeft = BUNDLE_MAX_INFLATED_BYTES;
  for (let i = 0; i < valid.length; i++) {
    const v = valid[i];
    await job.beat(5 + (i / valid.length) * 85, t.storing(i, valid.length));
    const key = `${REPORT_FILES_PREFIX}${packageId}/${i + 1}-${crypto.randomUUID()}.${v.ext}`;
    const limit = Math.min(maxFileBytes, inflatedLeft);
    try {
      stored.push(key);
      inflatedLeft -= await storeEntry(claim.bucket, key, v.entry, limit);
    } catch {
      await removeStored();
      const overBudget = limit < maxFileBytes;
      // Past the inflation budget is a refusal; a write the storage did not take may succeed next time.
      return job.finish(
        FILE_STATUS_UNREADABLE,
        overBudget ? refusalMessages.inflated(BUNDLE_MAX_INFLATED_BYTES) : t.storeFailed(v.fileName),
        0,
        0,
        !overBudget,
      );
    }
    entries.push({
      name: v.name,
      origin: v.origin,
      dateRef: v.dateRef,
      originalFile: key,
      originalName: v.fileName,
      bucket: claim.bucket,
      url: VIEWABLE.has(v.ext) ? objectUrlPath(claim.bucket, key) : null,
    });
  }
  return entries;
}

/** Upserts the reports (removing the stored files when that fails), then the files of the entries they replaced. */
async function publish(
  job: TargetJob,
  claim: JobClaim,
  entries: ReportEntry[],
  stored: string[],
  removeStored: () => Promise<unknown>,
): Promise<JobEnding> {
  await job.beat(95, t.storing(entries.length, entries.length), true);
  let applied: Awaited<ReturnType<typeof upsertReportEntries>>;
  try {
    await job.beginApply();
    applied = await upsertReportEntries(entries, { user: claim.user, now: job.now(), sourceFileId: claim.id }, job.db);
  } catch (error) {
    await removeStored();
    throw error;
  }
  // The replaced entries' own files (a package's); seeded and other documents are never removed here.
  await Promise.all(
    applied.previousFiles
      .filter((f) => f.originalFile.startsWith(REPORT_FILES_PREFIX) && !stored.includes(f.originalFile))
      .map((f) => deleteObject(f.bucket, f.originalFile).catch(() => undefined)),
  );
  return job.finish(FILE_STATUS_OK, t.done(applied.inserted, applied.replaced), entries.length, 0);
}
