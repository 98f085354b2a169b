// Screen: Audit trail export: GET /user/audit/export?formato=csv|xlsx (the filtered entries; itself audited).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditExport } from "~/features/audit/export.server";
import { AUDIT_FORMAT_PARAM } from "~/features/audit/params";
import { auditTexts } from "~/messages";
import { requireRouteAccess } from "~/platform/auth/auth.server";

/**
 * The entries the audit screen's filters select (the same URL parameters), newest first, as CSV or XLSX. The export is
 * written to the audit trail before the file is sent. An unknown format is 400, nothing exported.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/user.audit_.export", request);
  const url = new URL(request.url);
  const format = url.searchParams.get(AUDIT_FORMAT_PARAM);
  if (format !== "csv" && format !== "xlsx") {
    return Response.json(
      { error: auditTexts.exportBadFormat },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  return auditExport(url, format, user);
}
