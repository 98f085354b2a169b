/**
 * What an uploaded file is for ("Tipo de carga" on /captura/manual), stored on the file record as
 * `target`: browser-safe and text-free, shared by the upload panel, the upload routes, the file model and the
 * worker's dispatch.
 *   data      a data spreadsheet (CSV, TXT, XLSX) recognised by its header row: today's templates
 *   explorer  a document whose text is extracted and indexed for the explorer (PDF, DOCX, XLSX, TXT, CSV)
 *   reports   a report package: a ZIP with the manifest relatorios.csv / relatorios.xlsx and the files it names
 */

export const FILE_TARGETS = ["data", "explorer", "reports"] as const;
export type FileTarget = (typeof FILE_TARGETS)[number];

/** Uploads that name no target (older clients, scripts, records from before the choice) are data. */
export const DEFAULT_FILE_TARGET: FileTarget = "data";

/** The form field (multipart and /api/files/register) that carries the choice. */
export const FILE_TARGET_FIELD = "target";

/** The formats some upload job reads (data: CSV, TXT, XLSX; report packages: ZIP; documents: PDF, DOCX). */
export const PROCESSED_EXTENSIONS = ["csv", "txt", "xlsx", "zip", "pdf", "docx"] as const;

/** Formats that can only be documents: no data template reads them. */
const DOCUMENT_ONLY_EXTENSIONS: ReadonlySet<string> = new Set(["pdf", "docx"]);

export function isFileTarget(value: unknown): value is FileTarget {
  return typeof value === "string" && (FILE_TARGETS as readonly string[]).includes(value);
}

function extensionOfName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/**
 * The target a file is processed as: PDF and DOCX are always explorer documents (whatever was chosen: nothing else
 * reads them); every other format follows the choice, so a ZIP is a report package only when that was chosen (an
 * upload without the choice keeps today's behaviour: data).
 */
export function resolveFileTarget(chosen: FileTarget | null | undefined, originalName: string): FileTarget {
  if (DOCUMENT_ONLY_EXTENSIONS.has(extensionOfName(originalName))) return "explorer";
  return chosen ?? DEFAULT_FILE_TARGET;
}

/**
 * What a stored file holds, for whoever reads it back (`dataClass` on the file record), decided when it is stored and
 * never from its header row at download:
 *   hr     HR data: it leaves as /ij/rh shows that data, only the rows of the viewer's branches, every CPF masked
 *   plain  anything else: it leaves as it was stored
 */
export const FILE_DATA_CLASSES = ["hr", "plain"] as const;
export type FileDataClass = (typeof FILE_DATA_CLASSES)[number];

/**
 * What decided a file's class (`dataClassBy`):
 *   hr-round-trip  stored by the HR grid's own Excel route (an edited export queued as a job)
 *   hr-template    its header row is the HR upload template's
 *   hr-export      its header names an HR grid export (the hidden `_portal:<dataset>` column of an HR dataset)
 *   hr-rows        the worker read its rows as HR data (the template or an HR export)
 *   cpf-column     a column named CPF, or whose values are CPFs
 *   unreadable     a spreadsheet that could not be read: nothing says it holds no CPF
 *   no-hr-sign     read, and none of the above: plain
 *   not-rows       a format the portal reads no rows from (PDF, DOCX, ZIP): plain
 *   seed           written by the demo seed, which knows what it generated (tables of indicators): plain
 */
export const FILE_CLASS_SOURCES = [
  "hr-round-trip",
  "hr-template",
  "hr-export",
  "hr-rows",
  "cpf-column",
  "unreadable",
  "no-hr-sign",
  "not-rows",
  "seed",
] as const;
export type FileClassSource = (typeof FILE_CLASS_SOURCES)[number];

export type FileClassification = { dataClass: FileDataClass; by: FileClassSource };
