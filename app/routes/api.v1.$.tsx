// Screen: REST API: /api/v1/*, with a personal API token (docs/api.md); no page.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleApiRequest } from "~/api/v1/router.server";

/**
 * Every /api/v1 operation (app/api/v1/operations.server.ts): the token in `Authorization: Bearer`, never the session
 * cookie; the router applies each operation's screen rule to the token owner's type as it stands now.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return handleApiRequest(request, params["*"], "routes/api.v1.$");
}

export function action({ request, params }: ActionFunctionArgs) {
  return handleApiRequest(request, params["*"], "routes/api.v1.$");
}
