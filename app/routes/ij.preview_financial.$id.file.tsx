// Screen: Financial statement file: GET /ij/preview_financial/{id}/file.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRouteAccess } from "~/features/access/auth.server";
import { inlineRecordResponse } from "~/features/reports-and-financial/viewer.server";
import { findStatementDocument } from "~/models/financial.server";

/** GET /ij/preview_financial/{id}/file: a statement document's bytes, inline. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.preview_financial.$id.file", request);
  const doc = await findStatementDocument(params.id ?? "");
  return inlineRecordResponse(doc);
}
