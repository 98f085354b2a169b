import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

/**
 * Requests for calling a route's loader or action in-process, as a browser would send them: form posts with the
 * portal's Origin (the same-origin check) and a session cookie.
 */

/** The origin the in-process route tests use (their APP_ORIGIN). */
export const TEST_ORIGIN = "http://localhost:3000";

/** A form post (urlencoded) to `path`, with the Origin header unless `origin` is null and the cookie if one is given. */
export function formPost(
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; origin?: string | null } = {},
): Request {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  if (options.origin !== null) headers.set("Origin", options.origin ?? TEST_ORIGIN);
  if (options.cookie) headers.set("Cookie", options.cookie);
  return new Request(`${TEST_ORIGIN}${path}`, { method: "POST", headers, body: new URLSearchParams(fields) });
}

/** A page load (GET) of `path`, with the cookie if one is given. */
export function pageGet(path: string, cookie?: string): Request {
  return new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

/** The arguments Remix passes a loader or an action. */
export function routeArgs(
  request: Request,
  params: Record<string, string> = {},
  context: Record<string, unknown> = {},
): ActionFunctionArgs & LoaderFunctionArgs {
  return { request, params, context } as unknown as ActionFunctionArgs & LoaderFunctionArgs;
}

/** An action's arguments for a form post by the holder of `cookie`. */
export const postArgs = (path: string, fields: Record<string, string>, cookie: string): ActionFunctionArgs =>
  routeArgs(formPost(path, fields, { cookie }));

/** A loader's arguments for a page load by the holder of `cookie`. */
export const getArgs = (path: string, cookie: string): LoaderFunctionArgs => routeArgs(pageGet(path, cookie));
