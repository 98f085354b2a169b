import { DEMO_PASSWORD } from "../app/seed/accounts";

/** Signs a demo account in through the login form's POST (as without JavaScript) and returns its Cookie header. */
export async function signIn(baseURL: string, email: string): Promise<string> {
  const response = await fetch(`${baseURL}/?index`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseURL },
    body: new URLSearchParams({ intent: "signIn", email, password: DEMO_PASSWORD }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (response.status !== 302 || !cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie;
}
