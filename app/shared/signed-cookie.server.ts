import { type Cookie, createCookie } from "@remix-run/node";
import { getConfig } from "~/config.server";

/**
 * A short-lived cookie of the portal's own, signed with the session secret: httpOnly, SameSite=Lax, Secure when the
 * portal is served over https in production. What carries a one-time message to the next request (the toast, planning's
 * "Report generated successfully", the federated sign-in's nonce).
 */
export function signedCookie(name: string, maxAgeSeconds: number, path = "/"): Cookie {
  const config = getConfig();
  return createCookie(name, {
    path,
    httpOnly: true,
    sameSite: "lax",
    secure: config.isProduction && config.origin.startsWith("https://"),
    secrets: [config.session.secret],
    maxAge: maxAgeSeconds,
  });
}
