// Screen: Report file: GET /ij/report/{id}/file.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { inlineRecordResponse } from "~/features/reports-and-financial/viewer.server";
import { findReport } from "~/models/reports.server";
import { recordedDownload } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";

/** GET /ij/report/{id}/file: the bytes of a report with an online copy, inline (the viewer's PDF frame). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report.$id.file", request);
  const report = await findReport(params.id ?? "");
  return recordedDownload(await inlineRecordResponse(report), {
    actor: user,
    object: { kind: "file", id: String(report?._id ?? params.id ?? ""), label: report?.originalName ?? null },
    dataset: "reports",
    details: { via: "reportFile" },
  });
}
