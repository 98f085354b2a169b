import { redirect } from "@remix-run/node";
import { recordSignInOutcome, signInVerifiedUser } from "~/features/access/accounts.server";
import { messages } from "~/messages";
import { recordAudit } from "~/platform/audit/record.server";
import { SsoError, type SsoIdentity } from "~/services/sso/sso.server";

/**
 * After a verified single sign-on: the same completion as the password login (permission record,
 * CONTATE SEU ADMIN for an empty type, landing by type), with the session bounded by the IdP's deadline.
 */
export async function completeSsoSignIn(
  request: Request,
  identity: SsoIdentity,
  extraHeaders?: HeadersInit,
  mode: "saml" | "cognito-federated" = "saml",
): Promise<{ response: Response } | { error: string }> {
  const outcome = await signInVerifiedUser(identity.email, undefined, request, identity.sessionNotOnOrAfter);
  await recordSignInOutcome(identity.email, mode, outcome);
  if (outcome.kind === "noType") return { error: messages.contactAdmin };
  const headers = new Headers(outcome.sessionCookieHeaders);
  for (const [key, value] of new Headers(extraHeaders).entries()) headers.append(key, value);
  return { response: redirect(outcome.redirectTo, { headers }) };
}

/**
 * A single sign-on the portal refused before knowing who it was (bad signature, replay, expired assertion, unverified
 * e-mail …): a failed sign-in without an actor, with the refusal's reason code (never the assertion or the token).
 */
export async function recordSsoRefusal(mode: "saml" | "cognito-federated", error: unknown): Promise<void> {
  await recordAudit({
    actor: null,
    event: "signIn",
    outcome: "failed",
    details: { method: mode, reason: error instanceof SsoError ? error.reason : "error" },
  });
}
