// Screen: Forecast preparers template: GET /ij/forecast_preparers/modelo downloads it, POST sends a filled one back.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { preparersHref } from "~/features/forecast/preparers/paths";
import { assignCandidates, keepOutcome, outcomeParams } from "~/features/forecast/preparers/preparers.server";
import { preparersTemplateResponse, uploadedTemplate } from "~/features/forecast/preparers/template.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";

/** The template: a header row (cost_center_concat, user_email) and one row per current assignment. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.forecast_preparers.modelo", request);
  return preparersTemplateResponse();
}

/**
 * A filled template (multipart, field `arquivo`, XLSX or CSV): each row assigns its user to its cost centre with the
 * screen's checks; it only adds. Back to the screen with the counts and the refused rows (line and reason).
 */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRouteAccess("routes/ij.forecast_preparers.modelo", request, "write");
  const file = await uploadedTemplate(request);
  if (!file.ok) return redirect(preparersHref({}, { erro: file.code }));
  const outcome = await assignCandidates(file.candidates, admin.email, "template");
  const kept = await keepOutcome(admin.email, outcome);
  return redirect(preparersHref({}, outcomeParams("uploaded", outcome, kept)));
}
