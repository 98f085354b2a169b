import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from "express";
import { runWithClientAddress } from "../app/shared/client-address.server";
import { runInRequestScope } from "../app/shared/request-scope.server";
import { SESSION_COOKIE_NAME } from "../app/shared/session-cookie-name";

const NO_STORE = "private, no-store";
const SESSION_COOKIE = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE_NAME}=`);

/**
 * No answer of the portal is kept by a browser or a shared cache: the one place every page, data request and
 * resource route (downloads, exports, APIs, redirects, refusals) passes, so no route can forget it. Static files are
 * served before this and keep their own caching. An answer to a request with a session cookie is always
 * `private, no-store`, whatever the route set; a signed-out one keeps a caching the route set itself (the SSO
 * metadata, the route manifest), and is `private, no-store` otherwise.
 */
export function keepOutOfCaches(req: ExpressRequest, res: ExpressResponse): void {
  const signedIn = SESSION_COOKIE.test(req.headers.cookie ?? "");
  const writeHead = res.writeHead;
  // Called once, with the final headers, however the answer ends (Node's implicit headers go through it too).
  res.writeHead = function (this: ExpressResponse, ...args: Parameters<typeof writeHead>) {
    const set = String(res.getHeader("Cache-Control") ?? "");
    const stored = signedIn ? !/\bno-store\b/i.test(set) || /\bpublic\b/i.test(set) : set === "";
    if (stored) res.setHeader("Cache-Control", NO_STORE);
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

/**
 * The Remix request handler as the host mounts it behind its guards: every page, data request and resource route
 * (downloads, exports, APIs) is answered here, kept out of caches (`keepOutOfCaches`).
 */
export function remixRequestHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: "development" | "production",
): RequestHandler {
  const handle = createRequestHandler({
    build,
    mode,
    getLoadContext: (req, res) => ({
      cspNonce: String(res.locals.cspNonce ?? ""),
      requestId: String(res.locals.requestId ?? ""),
      // req.ip is the client's address as the trusted proxies saw it (per-IP sign-in limit).
      clientIp: req.ip ?? "",
    }),
  });
  // The loaders of one GET share what they read once (the signed-in user: app/shared/request-scope.server.ts).
  // The client address is known to the whole request (the route guard's refusals in the audit trail).
  return (req, res, next) => {
    keepOutOfCaches(req, res);
    return runWithClientAddress(req.ip, () =>
      req.method === "GET" || req.method === "HEAD"
        ? runInRequestScope(() => handle(req, res, next))
        : handle(req, res, next),
    );
  };
}
