// Screen: Financial statement file: GET /ij/preview_financial/{id}/file.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { inlineRecordResponse } from "~/features/reports-and-financial/viewer.server";
import { findStatementDocument } from "~/models/financial.server";
import { recordedDownload } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";

/** GET /ij/preview_financial/{id}/file: a statement document's bytes, inline. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.preview_financial.$id.file", request);
  const doc = await findStatementDocument(params.id ?? "");
  return recordedDownload(await inlineRecordResponse(doc), {
    actor: user,
    object: { kind: "file", id: String(doc?._id ?? params.id ?? ""), label: doc?.originalName ?? null },
    dataset: "financial",
    details: { via: "statementFile" },
  });
}
