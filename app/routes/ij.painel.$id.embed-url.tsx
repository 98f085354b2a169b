// Screen: Dashboard embed address: GET /ij/painel/{id}/embed-url (QuickSight renewal).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { PANEL_TYPES } from "~/models/dashboards.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { renewEmbedAddressResponse } from "~/platform/dashboards/dashboards.server";

/** Resource route: a fresh QuickSight embed address for /ij/painel/{id}, used by the session renewal. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.painel.$id.embed-url", request);
  return renewEmbedAddressResponse(user, params.id, PANEL_TYPES.intelligentJourney);
}
