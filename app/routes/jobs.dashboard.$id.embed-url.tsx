import type { LoaderFunctionArgs } from "@remix-run/node";
import { jobsDashboardPath } from "~/access";
import { requireAccess } from "~/auth.server";
import { PANEL_TYPES } from "~/models/dashboards.server";
import { renewEmbedAddressResponse } from "~/services/dashboards.server";

/** Resource route: a fresh QuickSight embed address for /jobs/dashboard/{id}, used by the session renewal. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAccess(request, jobsDashboardPath(params.id ?? ""));
  return renewEmbedAddressResponse(user, params.id, PANEL_TYPES.executedJobs);
}
