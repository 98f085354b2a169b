// Screen: SSO return: /saml, the assertion consumer.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { getConfig } from "~/config.server";
import { completeSsoSignIn, recordSsoRefusal } from "~/features/access/sso-complete.server";
import { messages } from "~/messages";
import { clearFederatedNonce, verifyFederatedSignIn } from "~/services/sso/cognito-federated.server";
import { authenticateSaml, clearSamlRequest } from "~/services/sso/saml.server";
import { logSsoRefusal, SsoError, type SsoIdentity } from "~/services/sso/sso.server";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

/**
 * /saml, the single sign-on return route (spec 000 §2).
 * - saml: the assertion consumer; the IdP posts SAMLResponse here.
 * - cognito-federated: Cognito returns here with id_token and expires_in in the address fragment,
 *   which only the browser sees; this page posts them back to the server.
 * Both then sign in like the password login and go to the user's landing page.
 */

// same-origin: no Referer at all to other sites (the address holds a code or a token), while same-origin posts keep
// their Origin header. "no-referrer" would make Chromium send `Origin: null`, which the host's CSRF check refuses.
export const meta: MetaFunction = () => [{ title: messages.loginTitle }, { name: "referrer", content: "same-origin" }];

export async function loader(_args: LoaderFunctionArgs) {
  const { mode } = getConfig().sso;
  // Single sign-on is off: the sign-in page, not a dead end.
  if (mode === "none") throw redirect("/", { headers: { "Cache-Control": "no-store" } });
  // No redirect for saml here: after a refused POST this loader runs too, and the refusal must show.
  return data({ mode }, { headers: { "Cache-Control": "no-store" } });
}

type ActionData = { error: string };

export async function action({ request }: ActionFunctionArgs) {
  const { mode } = getConfig().sso;
  if (mode === "none") throw redirect("/", { status: 303, headers: { "Cache-Control": "no-store" } });

  const extraHeaders = new Headers({ "Cache-Control": "no-store" });
  let identity: SsoIdentity;
  try {
    if (mode === "saml") {
      // The request this browser started answers one response at most, accepted or not.
      extraHeaders.append("Set-Cookie", await clearSamlRequest());
      ({ identity } = await authenticateSaml(request));
    } else {
      extraHeaders.append("Set-Cookie", await clearFederatedNonce());
      const form = await request.formData().catch(() => null);
      identity = await verifyFederatedSignIn({
        idToken: form?.get("id_token"),
        expiresIn: form?.get("expires_in"),
        cookieHeader: request.headers.get("Cookie"),
      });
    }
  } catch (error) {
    if (!(error instanceof SsoError)) throw error;
    logSsoRefusal(mode, error);
    await recordSsoRefusal(mode, error);
    // messages.ssoFailed, or a cause the user can act on (an unverified e-mail).
    return data<ActionData>({ error: error.message }, { status: 401, headers: extraHeaders });
  }

  const outcome = await completeSsoSignIn(request, identity, extraHeaders, mode);
  if ("response" in outcome) return outcome.response;
  return data<ActionData>({ error: outcome.error }, { status: 403, headers: extraHeaders });
}

/** The fragment Cognito's implicit grant returns: id_token, expires_in (or error). */
function readFragment(hash: string) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return { idToken: params.get("id_token"), expiresIn: params.get("expires_in"), error: params.get("error") };
}

export default function SsoReturnPage() {
  const { mode } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const formRef = useRef<HTMLFormElement>(null);
  const [tokens, setTokens] = useState<{ idToken: string; expiresIn: string } | null>(null);
  const [fragmentError, setFragmentError] = useState(false);

  useEffect(() => {
    if (mode !== "cognito-federated" || actionData) return;
    const fragment = readFragment(window.location.hash);
    // The token must not stay in the address bar or the history.
    if (window.location.hash) window.history.replaceState(null, "", window.location.pathname);
    if (fragment.idToken && fragment.expiresIn && !fragment.error) {
      setTokens({ idToken: fragment.idToken, expiresIn: fragment.expiresIn });
    } else {
      setFragmentError(true);
    }
  }, [mode, actionData]);

  useEffect(() => {
    // A plain document POST: the response's redirect and session cookie apply to the whole page.
    if (tokens) formRef.current?.submit();
  }, [tokens]);

  const error = actionData?.error ?? (fragmentError ? messages.ssoFailed : null);
  // The SAML assertion consumer only takes the IdP's POST; a visit by address offers the login page.
  if (!error && mode === "saml") {
    return (
      <div className="login">
        <div className="card login__card">
          <h1 className="login__title">{messages.loginTitle}</h1>
          <Link className="button button--primary button--block" to="/" reloadDocument>
            {messages.loginButton}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="login">
      <div className="card login__card">
        <h1 className="login__title">{messages.loginTitle}</h1>
        {error ? (
          <>
            <Alert tone="error">{error}</Alert>
            <Link className="button button--primary button--block" to="/" reloadDocument>
              {messages.loginButton}
            </Link>
          </>
        ) : (
          <>
            <p role="status">{messages.ssoSigningIn}</p>
            <noscript>
              <Alert tone="warning">{messages.ssoNeedsJavascript}</Alert>
            </noscript>
            {tokens ? (
              <form ref={formRef} method="post" action="/saml">
                <input type="hidden" name="id_token" value={tokens.idToken} />
                <input type="hidden" name="expires_in" value={tokens.expiresIn} />
              </form>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
