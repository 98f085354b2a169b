// Screen: Refused rows to fix: /captura/processando/corrigir/{file id} (an XLSX in the template's layout).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { fixRowsDownload } from "~/features/uploads-and-jobs/fix-rows.server";
import { recordedDownload } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";

/**
 * "Baixar linhas recusadas para corrigir": a job's refused rows as an XLSX in its template's own layout plus a last
 * column "Motivo da recusa" (ignored when the file is sent back); for an all-or-nothing template the whole original
 * file, the reason filled on the refused rows. For the file's uploader and the types that may open /jobs/executados;
 * anyone else, an unknown or malformed id, or a file without refused rows of a template: 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/captura.processando_.corrigir.$id", request);
  // The audit trail: the refused rows leaving the portal (recorded only when the list is answered).
  return recordedDownload(await fixRowsDownload(params, user), {
    actor: user,
    object: { kind: "file", id: String(params.id ?? "").slice(0, 40) },
    details: { via: "fixRowsXlsx" },
  });
}
