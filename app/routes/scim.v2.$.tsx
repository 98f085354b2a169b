// Screen: SCIM provisioning: /scim/v2/*, for an identity provider with a SCIM token (docs/api.md); no page.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleScimRequest } from "~/api/scim/router.server";

/** Users and Groups (the permission tiers) as RFC 7643/7644 describe them (app/api/scim/). */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleScimRequest(request, params["*"], "routes/scim.v2.$");
}

export function action({ request, params }: ActionFunctionArgs) {
  return handleScimRequest(request, params["*"], "routes/scim.v2.$");
}
