import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from "express";
import { messages } from "../app/messages";
import { isCrossSitePostAllowed, isSameOriginRequest } from "../app/shared/same-origin";

/**
 * Checks the host makes before any route runs: a Host it can build a URL from, no legacy `?_data` requests,
 * and no state-changing request from another origin (CSRF). Each refusal is a small Portuguese page with a 4xx.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A minimal, self-contained page for refusals answered before Remix (no scripts, no styles to load). */
export function sendMessagePage(res: ExpressResponse, status: number, title: string, text: string): void {
  res
    .status(status)
    .set("Cache-Control", "no-store")
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>` +
        `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/">${escapeHtml(messages.backHome)}</a></p></main></body></html>`,
    );
}

/** host[:port] as a URL accepts it: a DNS name, IPv4 or bracketed IPv6, and an optional port. */
const HOST_RE =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[([0-9a-f:.]+)\])(?::(\d{1,5}))?$/i;

/**
 * A Host (or forwarded host) a URL can be built from: a DNS name, an IPv4 address or a bracketed IPv6 literal that
 * parses as one, and, when a port is written, a port from 1 to 65535 (0 is no destination). No userinfo, no path.
 */
export function isValidHost(host: string | undefined): host is string {
  if (typeof host !== "string" || host.length > 255) return false;
  const match = HOST_RE.exec(host);
  if (!match) return false;
  if (match[2] !== undefined) {
    const port = Number(match[2]);
    if (port < 1 || port > 65535) return false;
  }
  if (match[1] !== undefined) {
    try {
      new URL(`http://[${match[1]}]/`);
    } catch {
      return false;
    }
  }
  return true;
}

/** Reports a refused request once (repeats are counted by the reporter), at warn, with its reason and no stack. */
export type MalformedReport = (reason: string, req: ExpressRequest, status: number) => void;

/**
 * The request target must be a path (origin-form). An absolute-form target (`GET http://host:port/path`, which HTTP/1.1
 * allows) is accepted when its authority is a valid host without userinfo: it then stands for Host, as RFC 9112 says,
 * and the target becomes its path, so nothing downstream builds a URL from the whole address. Anything else (a bad
 * port, an unclosed IPv6 bracket, userinfo, another scheme, authority-form) is a 400. This runs on the raw request,
 * before Express: Express answers 404 to a target it cannot parse before any middleware sees it.
 * Returns true when it answered the request.
 */
export function screenRequestTarget(
  req: IncomingMessage,
  res: ServerResponse,
  report: (reason: string, status: number) => void,
): boolean {
  const target = req.url ?? "";
  if (target.startsWith("/")) return false;
  const refuse = (reason: string) => {
    report(reason, 400);
    const page = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(messages.badRequestTitle)}</title></head><body><main><h1>${escapeHtml(messages.badRequestTitle)}</h1><p>${escapeHtml(messages.invalidHost)}</p></main></body></html>`;
    res.writeHead(400, {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Length": Buffer.byteLength(page),
      Connection: "close",
    });
    res.end(page);
    return true;
  };
  if (!/^https?:\/\//i.test(target)) return refuse("request target is neither a path nor an http(s) URL");
  const authority = target.replace(/^https?:\/\//i, "").split(/[/?#]/, 1)[0];
  if (authority.includes("@")) return refuse("userinfo in the request target");
  if (!isValidHost(authority)) return refuse("invalid authority in the request target");
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return refuse("unparsable request target");
  }
  req.headers.host = authority;
  req.url = `${url.pathname}${url.search}`;
  return false;
}

/** Whether the peer of this request is one of the trusted proxies (Express's compiled `trust proxy`). */
function fromTrustedProxy(req: ExpressRequest): boolean {
  const trust = req.app.get("trust proxy fn") as ((addr: string, i: number) => boolean) | undefined;
  return !!trust && !!req.socket.remoteAddress && trust(req.socket.remoteAddress, 0);
}

/**
 * The origin the browser addressed: the scheme (X-Forwarded-Proto only through Express's trust setting) and the
 * host — X-Forwarded-Host when, and only when, the request came through a trusted proxy, else Host. Null when
 * that host is not a valid one.
 */
export function requestOrigin(req: ExpressRequest): string | null {
  const forwarded = fromTrustedProxy(req) ? req.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const host = forwarded || req.get("host");
  if (!isValidHost(host)) return null;
  return `${req.protocol}://${host}`.toLowerCase();
}

/** 400 for a request whose Host (or trusted forwarded host) is missing or malformed: no URL can be built from it. */
export function rejectInvalidHost(report: MalformedReport): RequestHandler {
  return (req, res, next) => {
    if (requestOrigin(req) !== null) return next();
    report("missing or invalid Host", req, 400);
    sendMessagePage(res, 400, messages.badRequestTitle, messages.invalidHost);
  };
}

/**
 * The query as Remix reads it: the search of the URL @remix-run/express builds from `req.originalUrl`, every key of it
 * (URLSearchParams). Never Express's `req.query`, whose parser stops at 1,000 keys, so a key after them would be seen
 * by Remix and not by the host.
 */
export function remixSearchParams(req: Pick<ExpressRequest, "originalUrl" | "url">): URLSearchParams {
  try {
    return new URL(`http://host.invalid${req.originalUrl ?? req.url}`).searchParams;
  } catch {
    return new URLSearchParams();
  }
}

/**
 * Remix 1's data requests (`?_data=routes/…`) are not part of this single-fetch app: answered 400 with a message
 * instead of reaching a route that would treat them as a document request, or run the action of the route `_data`
 * names under the body limit of the route the path matches.
 */
export const rejectLegacyDataRequests: RequestHandler = (req, res, next) => {
  if (remixSearchParams(req).has("_data"))
    return sendMessagePage(res, 400, messages.badRequestTitle, messages.legacyDataRequest);
  next();
};

/**
 * Forwarded host headers reach the app only from a trusted proxy: a client's own X-Forwarded-Host would otherwise
 * steer the URL Remix builds (its port) and Remix's own origin comparison.
 */
export const dropUntrustedForwardedHost: RequestHandler = (req, _res, next) => {
  if (!fromTrustedProxy(req)) delete req.headers["x-forwarded-host"];
  next();
};

/**
 * CSRF: a non-GET request must come from one of `allowedOrigins` or from the origin it was addressed to. The SAML
 * assertion consumer alone takes the identity provider's cross-site POST (its signed response is the proof).
 *
 * Once a request has passed, its Origin header is set to the origin it was addressed to: Remix compares Origin with
 * the (forwarded) Host on every action and throws (a 500) on a difference, which would refuse exactly the posts this
 * check admits on purpose — the IdP's, and those from APP_ALLOWED_ORIGINS or a local alias.
 */
export function rejectCrossOrigin(options: { allowedOrigins: readonly string[]; ssoMode: string }): RequestHandler {
  return (req, res, next) => {
    const self = requestOrigin(req);
    const ok =
      isCrossSitePostAllowed(req.path, options.ssoMode) ||
      isSameOriginRequest({
        method: req.method,
        origin: req.get("origin") ?? null,
        referer: req.get("referer") ?? null,
        allowed: self ? [...options.allowedOrigins, self] : options.allowedOrigins,
      });
    if (!ok) return sendMessagePage(res, 403, messages.forbiddenTitle, messages.crossOriginRefused);
    if (self && req.headers.origin !== undefined && req.headers.origin.toLowerCase() !== self)
      req.headers.origin = self;
    next();
  };
}
