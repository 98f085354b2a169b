import type { Readable } from "node:stream";
import { canAccessRoute } from "~/access";
import { accessContext } from "~/config.server";
import type { AuthenticatedUser } from "~/features/access/auth.server";
import { jobTexts } from "./texts";
import { branchScopeOf, inBranchScope, type BranchScope } from "~/models/hr.server";
import { extensionOf, openReadStream } from "~/services/storage.server";
import { contentDisposition } from "~/services/storage/s3.server";
import { maskCpf } from "~/shared/cpf";
import { csvCell } from "~/shared/csv";
import { detectTemplate } from "./import/templates";
import { readXlsxRows, type SourceRow } from "~/shared/excel/xlsx-reader.server";
import { readCsvBatches } from "./import/readers.server";
import { cellText } from "~/shared/excel/values";

/**
 * A stored file of HR auxiliary data leaves the portal as /ij/rh shows that data: only the rows of the
 * viewer's branches, every CPF masked, whoever uploaded it. Every signed download link (`/download/{token}`: the
 * repository list, the master-data file names) asks `hrFileView` first; a CSV or XLSX whose header is the HR template
 * is answered here, as a CSV of the template's columns, and any other file as it was stored.
 */

/** The answer for an HR file, or null when the stored object is not one (then it is downloaded as stored). */
export async function hrFileView(
  grant: { bucket: string; key: string; filename: string },
  viewer: Pick<AuthenticatedUser, "email" | "type">,
): Promise<Response | null> {
  const ext = extensionOf(grant.key);
  if (ext !== "csv" && ext !== "txt" && ext !== "xlsx") return null;
  const { stream } = await openReadStream(grant.bucket, grant.key);
  const rows = ext === "xlsx" ? readXlsxRows(stream) : flatten(readCsvBatches(stream));
  let layout: ReturnType<typeof detectTemplate> = null;
  try {
    for (;;) {
      const next = await rows.next();
      if (next.done) break;
      if (next.value.cells.every((c) => cellText(c) === "")) continue;
      layout = detectTemplate(next.value.cells);
      break;
    }
  } catch {
    layout = null; // an unreadable file is no HR view: it is downloaded as stored
  }
  if (layout?.template.id !== "hr_aux") {
    await close(rows, stream);
    return null;
  }
  // Who may not read the HR grid gets no HR file from a link either.
  if (!canAccessRoute(viewer.type, "routes/ij.rh", accessContext())) {
    await close(rows, stream);
    throw new Response(null, { status: 403 });
  }
  const scope = await branchScopeOf(viewer.email);
  const columns = layout.template.columns.map((c) => c.name);
  return new Response(hrCsvStream(rows, stream, columns, layout.indexes, scope), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": contentDisposition(jobTexts.hrFileName(grant.filename)),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

async function* flatten(batches: AsyncGenerator<SourceRow[]>): AsyncGenerator<SourceRow> {
  for await (const batch of batches) yield* batch;
}

async function close(rows: AsyncGenerator<SourceRow>, stream: Readable): Promise<void> {
  stream.destroy();
  await rows.return(undefined).catch(() => undefined);
}

const ROWS_PER_CHUNK = 500;

function hrCsvStream(
  rows: AsyncGenerator<SourceRow>,
  source: Readable,
  columns: readonly string[],
  indexes: readonly number[],
  scope: BranchScope,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const filial = columns.indexOf("filial_nome");
  const cpf = columns.indexOf("cpf");
  const line = (cells: readonly string[]) =>
    `${cells.map((cell, k) => (k === cpf ? cell : csvCell(cell))).join(";")}\r\n`;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let text = headerSent ? "" : `\uFEFF${line(columns)}`;
        headerSent = true;
        for (let n = 0; n < ROWS_PER_CHUNK; n++) {
          const next = await rows.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          const cells = indexes.map((i) => cellText(next.value.cells[i]));
          if (cells.every((c) => c === "") || !inBranchScope(cells[filial], scope)) continue;
          cells[cpf] = maskCpf(cells[cpf]);
          text += line(cells);
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
