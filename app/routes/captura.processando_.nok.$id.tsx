// Screen: Refused rows download: /captura/processando/nok/{file id} (a job's NOK rows as CSV, from the job lists).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { recordedDownload } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { nokRowsDownload } from "~/platform/import/nok-rows.server";

/**
 * The refused rows of one all-or-nothing upload (a spec-001 dataset template or a report package) as a CSV (pt-BR,
 * ";", UTF-8 with BOM): Linha, the template's columns, Erro; streamed. For the file's uploader and for the types that
 * may open /jobs/executados; anyone else, an unknown or malformed id, or a file without refused rows: 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/captura.processando_.nok.$id", request);
  // The audit trail: the refused rows leaving the portal (recorded only when the list is answered).
  return recordedDownload(await nokRowsDownload(params, user), {
    actor: user,
    object: { kind: "file", id: String(params.id ?? "").slice(0, 40) },
    details: { via: "nokRowsCsv" },
  });
}
