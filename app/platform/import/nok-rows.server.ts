import type { Document, FindCursor } from "mongodb";
import { ObjectId } from "mongodb";
import { z } from "zod";
import { canAccessRoute, type RouteId } from "~/access";
import { accessContext } from "~/config.server";
import { type FileListItem, findFileForDownload } from "~/models/file-jobs.server";
import { branchScopeOf, HR_AUX_NOK } from "~/models/hr.server";
import { REPORTS_NOK } from "~/models/reports.server";
import {
  type NokCollection,
  nokCollectionsOfFileKeys,
  nokRowsCursor,
  REPORT_NOK_COLUMNS,
} from "~/models/upload-nok.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { contentDisposition } from "~/services/storage/s3.server";
import { objectUrlPath } from "~/services/storage.server";
import { maskCpf, maskCpfsInText } from "~/shared/cpf";
import { csvCell } from "~/shared/csv";
import { uiTexts } from "~/shared/ui/texts";
import { DATASET_COLLECTIONS } from "./datasets/apply.server";
import { storedFileClass } from "./hr-file-view.server";
import { TEMPLATES } from "./registry";
import { isDatasetTemplate } from "./template";
import { exportedFileTexts } from "./texts";

/**
 * The refused rows of an all-or-nothing upload (the six spec-001 dataset templates, report packages), which the job's
 * message tells the user to correct, and those of a spec-000 master-data file for its uploader (who may not open
 * /repo/master-data, e.g. USER BRONZE): the job lists link "Linhas NOK" to `/captura/processando/nok/<file id>`, a CSV
 * (pt-BR: ";" separated, UTF-8 with BOM so Excel reads the accents) with Linha, the template's columns and Erro,
 * streamed from one cursor in line order. Seen by the file's uploader and by the types that may open /jobs/executados
 * (who see every job); to anyone else the file does not exist (404).
 */

/** The download's route (the job lists link to it when its rule admits the viewer). */
const NOK_DOWNLOAD_ROUTE: RouteId = "routes/captura.processando_.nok.$id";
/** The list of every user's jobs: whoever may open it may see any job's refused rows. */
const ALL_JOBS_ROUTE: RouteId = "routes/jobs.executados";

/** The columns each NOK collection keeps, in the template's order (the tests check every collection of the model's list). */
const NOK_COLUMNS: ReadonlyMap<NokCollection, readonly string[]> = new Map<NokCollection, readonly string[]>([
  // Every upload template's: a NOK row keeps the template's columns as the file had them.
  ...TEMPLATES.map(
    (t) =>
      [
        (isDatasetTemplate(t) ? DATASET_COLLECTIONS[t.id].nokCollection : t.load.nokCollection) as NokCollection,
        t.columns.map((c) => c.name),
      ] as const,
  ),
  [REPORTS_NOK, REPORT_NOK_COLUMNS],
]);

export function nokColumnsOf(collection: NokCollection): readonly string[] {
  const columns = NOK_COLUMNS.get(collection);
  if (!columns) throw new Error(`no columns known for ${collection}`);
  return columns;
}

/** The download address of a file's refused rows. */
export function nokRowsDownloadHref(fileId: string): string {
  return `/captura/processando/nok/${encodeURIComponent(fileId)}`;
}

/**
 * Whether `viewer` may see the refused rows of a file uploaded by `uploader`: the download's rule admits the viewer,
 * and the viewer is the uploader or may open the list of every user's jobs.
 */
export function canSeeNokRowsOf(viewer: Pick<AuthenticatedUser, "email" | "type">, uploader: string): boolean {
  const context = accessContext();
  if (!canAccessRoute(viewer.type, NOK_DOWNLOAD_ROUTE, context)) return false;
  return (uploader !== "" && uploader === viewer.email) || canAccessRoute(viewer.type, ALL_JOBS_ROUTE, context);
}

const FILE_ID = /^[0-9a-fA-F]{24}$/;
const paramsSchema = z.object({ id: z.string().regex(FILE_ID) });

/** A file as the rule of its refused rows reads it (a job list's item, a download's record). */
export type NokRowsFile = Pick<FileListItem, "id" | "bucket" | "originalFile"> & { user?: unknown };

/**
 * THE rule of a file's refused rows: of `files`, those whose refused rows `viewer` may see (canSeeNokRowsOf) and that
 * have some, each with the collection holding them (keyed by the file's id). Both downloads start from it
 * (seenNokFile), and so does every link to them (the API's `links.refused`), so a link is there exactly when the
 * download answers 200, whatever the job's state.
 */
export async function refusedRowsOfFiles(
  files: readonly NokRowsFile[],
  viewer: Pick<AuthenticatedUser, "email" | "type">,
): Promise<Map<string, NokCollection>> {
  const seen = files.filter(
    (file) => FILE_ID.test(file.id) && canSeeNokRowsOf(viewer, typeof file.user === "string" ? file.user : ""),
  );
  return nokCollectionsOfFileKeys(
    seen.map((file) => ({
      id: ObjectId.createFromHexString(file.id),
      urlPath: objectUrlPath(file.bucket, file.originalFile),
    })),
  );
}

/** 404 with the portal's not-found text: an unknown, malformed or unseen file, or one without refused rows. */
export function notFound(): never {
  throw new Response(uiTexts.notFound, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The file of `params.id` and its refused rows' collection, if `viewer` may see them (its uploader, or a type that may
 * open /jobs/executados), and the branches an HR viewer is held to; else a thrown 404. Both downloads of refused rows
 * (the CSV here and the XLSX to fix) start from it, so they apply the same rule.
 */
export async function seenNokFile(params: unknown, viewer: Pick<AuthenticatedUser, "email" | "type">) {
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) notFound();
  const fileId = ObjectId.createFromHexString(parsed.data.id);
  const file = await findFileForDownload(parsed.data.id);
  if (!file) notFound();
  const collection = (await refusedRowsOfFiles([file], viewer)).get(file.id);
  if (!collection) notFound();
  const urlPath = objectUrlPath(file.bucket, file.originalFile);
  // HR rows leave as /ij/rh shows them: the viewer's branches only, the CPF masked. HR rows are those of the HR
  // template and those of any file classified HR when it was stored (a row that names no branch is no branch's).
  const hr =
    collection === HR_AUX_NOK ||
    (await storedFileClass({ bucket: file.bucket, key: file.originalFile, known: file.dataClass })) === "hr";
  const scope = hr ? await branchScopeOf(viewer.email) : null;
  const branches = scope?.kind === "stores" ? scope.stores : undefined;
  return { fileId, file, urlPath, collection, hr, branches };
}

/** The CSV answer for the route's `params` (`id`: the file's id), or a thrown 404 Response. */
export async function nokRowsDownload(
  params: unknown,
  viewer: Pick<AuthenticatedUser, "email" | "type">,
): Promise<Response> {
  const { fileId, file, urlPath, collection, hr, branches } = await seenNokFile(params, viewer);
  const columns = nokColumnsOf(collection);
  const cursor = await nokRowsCursor(collection, { id: fileId, urlPath }, columns, undefined, branches);
  return new Response(nokCsvStream(cursor, columns, hr ? maskCpfColumn : undefined), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": contentDisposition(exportedFileTexts.nokCsvFileName(String(file.originalName ?? ""))),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** A refused row of an HR file as HR screens show it: the `cpf` column masked, any CPF elsewhere too. */
export function maskCpfColumn(column: string, value: unknown): unknown {
  if (column === "cpf") return maskCpf(typeof value === "string" ? value : String(value ?? ""));
  // An Error quotes the cell it refused ("Coluna cpf: valor \"…\" inválido"): any CPF-shaped number in it too.
  if (column === "Error" && typeof value === "string") return value.replace(CPF_IN_TEXT, (found) => maskCpf(found));
  // A CPF typed in another column (a file classified HR by a CPF column of its own).
  if (typeof value === "string") return maskCpfsInText(value);
  if (typeof value === "number" && Number.isInteger(value)) {
    const masked = maskCpfsInText(String(value));
    return masked === String(value) ? value : masked;
  }
  return value;
}
const CPF_IN_TEXT = /\d[\d.-]{7,16}\d/g; // 9 to 18 characters of digits, dots and dashes: a CPF, even a mistyped one

/** Rows turned into text per chunk the stream hands on. */
const ROWS_PER_CHUNK = 500;

/**
 * The CSV of a cursor's rows, pulled as the client reads: the BOM and the header first, then up to ROWS_PER_CHUNK
 * rows per chunk; the cursor is closed at the end, on a failure or when the client goes away.
 */
export function nokCsvStream(
  cursor: FindCursor<Document>,
  columns: readonly string[],
  shown: (column: string, value: unknown) => unknown = (_c, v) => v,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // A user's own cells, shown back as text: formulas escaped (app/shared/csv.ts).
  const line = (cells: readonly unknown[]) => `${cells.map((cell) => csvCell(cell)).join(";")}\r\n`;
  const rows = cursor[Symbol.asyncIterator]();
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let text = "";
        if (!headerSent) {
          headerSent = true;
          text = `\uFEFF${line([exportedFileTexts.nokCsvLine, ...columns, exportedFileTexts.nokCsvError])}`;
        }
        for (let n = 0; n < ROWS_PER_CHUNK; n++) {
          const next = await rows.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            await cursor.close();
            controller.close();
            return;
          }
          const row = next.value;
          text += line([row._lineNumber, ...columns.map((c) => shown(c, row[c])), shown("Error", row.Error)]);
        }
        controller.enqueue(encoder.encode(text));
      } catch (error) {
        await cursor.close().catch(() => undefined);
        controller.error(error);
      }
    },
    async cancel() {
      await cursor.close().catch(() => undefined);
    },
  });
}
