// Screen: SSO metadata: /saml/metadata, the service provider's metadata.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { getSamlMetadata } from "~/services/sso/saml.server";

/**
 * SP metadata for the IdP administrator: our entity ID, the assertion consumer (/saml) and the
 * certificate that signs our AuthnRequests. Only served when SSO_MODE=saml.
 */
export async function loader(_args: LoaderFunctionArgs) {
  if (getConfig().sso.mode !== "saml") throw new Response("Not Found", { status: 404 });
  return new Response(getSamlMetadata(), {
    headers: {
      "Content-Type": "application/samlmetadata+xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
