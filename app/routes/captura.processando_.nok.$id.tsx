// Screen: Refused rows download: /captura/processando/nok/{file id} (a job's NOK rows as CSV, from the job lists).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRouteAccess } from "~/features/access/auth.server";
import { nokRowsDownload } from "~/features/uploads-and-jobs/nok-rows.server";

/**
 * The refused rows of one all-or-nothing upload (a spec-001 dataset template or a report package) as a CSV (pt-BR,
 * ";", UTF-8 with BOM): Linha, the template's columns, Erro; streamed. For the file's uploader and for the types that
 * may open /jobs/executados; anyone else, an unknown or malformed id, or a file without refused rows: 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/captura.processando_.nok.$id", request);
  return nokRowsDownload(params, user);
}
