// Screen: Forecast cell history: GET /ij/report_preview_edit_schneider/{rf}/{cost_center_concat}/history (JSON).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { reviewHistory } from "~/features/forecast/cell-history.server";
import { resolveReview } from "~/features/forecast/review.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";

/**
 * GET /ij/report_preview_edit_schneider/{period}/{cost_center}/history?account=…&month=YYYY-MM (JSON): who changed the
 * cell, when, from which value to which, newest first. The review grid's "Histórico da célula" reads it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(
    "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.history",
    request,
  );
  const lookup = await resolveReview(params, user);
  if (!lookup.ok)
    return Response.json(
      { ok: false, message: lookup.message },
      { status: lookup.status, headers: { "Cache-Control": "private, no-store" } },
    );
  return reviewHistory(new URL(request.url), lookup.review);
}
