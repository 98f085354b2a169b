// Screen: SSO start: /saml/login, redirect to the identity provider.
import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { getClientIp } from "~/features/access/login-limit.server";
import { allowSsoStart } from "~/features/access/sso-start-limit.server";
import { messages } from "~/messages";
import { startFederatedSignIn } from "~/services/sso/cognito-federated.server";
import { authenticateSaml } from "~/services/sso/saml.server";
import { redirectWithToast } from "~/shared/toast.server";

/**
 * The single sign-on button's target. saml: redirect to the IdP with a signed AuthnRequest.
 * cognito-federated: redirect to the Cognito hosted UI for the configured identity provider.
 * none: back to the sign-in page. Starts are limited per client address (sso-start-limit.server.ts): past the
 * limit, back to the sign-in page with the too-many-attempts message, and no request is stored.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { mode } = getConfig().sso;
  if (mode !== "none" && !(await allowSsoStart(getClientIp(context)))) {
    const toast = { type: "error" as const, description: messages.tooManyAttempts };
    return redirectWithToast("/", toast, { headers: { "Cache-Control": "no-store" } });
  }
  if (mode === "saml") {
    // GET always ends in the redirect to the IdP (thrown by the strategy).
    await authenticateSaml(request);
    throw new Error("the SAML strategy did not redirect");
  }
  if (mode === "cognito-federated") {
    const { url, setCookie } = await startFederatedSignIn();
    return redirect(url, { headers: { "Set-Cookie": setCookie, "Cache-Control": "no-store" } });
  }
  // Single sign-on is off: the sign-in page is where this button's users belong.
  return redirect("/", { headers: { "Cache-Control": "no-store" } });
}
