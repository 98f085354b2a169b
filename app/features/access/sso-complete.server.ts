import { redirect } from "@remix-run/node";
import { messages } from "~/messages";
import { signInVerifiedUser } from "~/features/access/accounts.server";
import type { SsoIdentity } from "~/services/sso/sso.server";

/**
 * After a verified single sign-on: the same completion as the password login (permission record,
 * CONTATE SEU ADMIN for an empty type, landing by type), with the session bounded by the IdP's deadline.
 */
export async function completeSsoSignIn(
  request: Request,
  identity: SsoIdentity,
  extraHeaders?: HeadersInit,
): Promise<{ response: Response } | { error: string }> {
  const outcome = await signInVerifiedUser(identity.email, undefined, request, identity.sessionNotOnOrAfter);
  if (outcome.kind === "noType") return { error: messages.contactAdmin };
  const headers = new Headers(outcome.sessionCookieHeaders);
  for (const [key, value] of new Headers(extraHeaders).entries()) headers.append(key, value);
  return { response: redirect(outcome.redirectTo, { headers }) };
}
