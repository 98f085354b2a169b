import { signedCookie } from "~/shared/signed-cookie.server";

/**
 * "Report generated successfully." is the answer to Generate report, not a state of the page: the
 * filter form sends `generated=1`, the results loader answers with a redirect to the same URL without it and this
 * one-time cookie, and the page it lands on shows the message once and clears the cookie. A reload, a deep link, a
 * page change or Back shows none. Server-side only, so it works without JavaScript.
 */

export const GENERATED_PARAM = "generated";
const COOKIE_NAME = "jp_generated";

// Read by the redirect's very next request; a cookie nobody read within a minute is stale.
const generatedCookie = () => signedCookie(COOKIE_NAME, 60);

/** The Set-Cookie header that marks the results of `key` (the results path and filter) as just generated. */
export async function generatedHeaders(key: string): Promise<Headers> {
  return new Headers({ "Set-Cookie": await generatedCookie().serialize(key) });
}

/** The key the request's cookie marks as just generated (null when none), and the headers that clear the cookie. */
export async function takeGenerated(request: Request): Promise<{ key: string | null; headers: Headers | null }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes(`${COOKIE_NAME}=`)) return { key: null, headers: null };
  const cookie = generatedCookie();
  const raw: unknown = await cookie.parse(cookieHeader).catch(() => null);
  const headers = new Headers({ "Set-Cookie": await cookie.serialize("", { maxAge: 0, expires: new Date(0) }) });
  return { key: typeof raw === "string" ? raw : null, headers };
}
