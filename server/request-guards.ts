import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from "express";
import { PROBLEM_TYPE, type ProblemCode, problemBody } from "../app/api/problem.server";
import { ERROR_SCHEMA, SCIM_CONTENT_TYPE } from "../app/api/scim/protocol";
import { messages } from "../app/messages";
import {
  isCrossSitePostAllowed,
  isSameOriginRequest,
  isSamlConsumer,
  isTokenApiPath,
  tokenApiOf,
} from "../app/shared/same-origin";

/**
 * Checks the host makes before any route runs: a Host it can build a URL from, no legacy `?_data` requests,
 * and no state-changing request from another origin (CSRF). Each refusal is a small Portuguese page with a 4xx.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const PROBLEM_CODES: Record<number, ProblemCode> = {
  400: "invalid",
  403: "forbidden",
  404: "not-found",
  413: "too-large",
  431: "too-large",
  503: "unavailable",
};

/**
 * A refusal answered before Remix: under the token API and SCIM (decided on the path Remix would route) in their
 * own formats, a problem+json or a SCIM error, as every other answer there; elsewhere a minimal, self-contained page
 * (no scripts, no styles to load).
 */
export function sendMessagePage(res: ExpressResponse, status: number, title: string, text: string): void {
  const api = tokenApiOf(routedPathname(res.req) ?? res.req.path);
  if (api) {
    const body =
      api === "scim"
        ? { schemas: [ERROR_SCHEMA], status: String(status), detail: text }
        : problemBody({ code: PROBLEM_CODES[status] ?? "server-error", status, title, detail: text });
    res
      .status(status)
      .set("Cache-Control", "no-store")
      .type(api === "scim" ? SCIM_CONTENT_TYPE : PROBLEM_TYPE)
      .send(JSON.stringify(body));
    return;
  }
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
  // The URL parser has the last word: an IPv6 literal must parse, and a name whose last label is numeric is read as
  // an IPv4 address ("999.999.999.999", "1.2.3.4.5" and "0x100000000" are refused), which the pattern cannot see.
  try {
    new URL(`http://${host}/`);
  } catch {
    return false;
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
    if (requestOrigin(req) !== null) {
      // Host names are case-insensitive, and Remix compares a browser's (lower-case) Origin with them as written.
      if (req.headers.host) req.headers.host = req.headers.host.toLowerCase();
      const forwarded = req.headers["x-forwarded-host"];
      if (typeof forwarded === "string") req.headers["x-forwarded-host"] = forwarded.toLowerCase();
      return next();
    }
    report("missing or invalid Host", req, 400);
    sendMessagePage(res, 400, messages.badRequestTitle, messages.invalidHost);
  };
}

/** The URL @remix-run/express builds from `req.originalUrl` (its host aside), or null when none can be built. */
function remixUrl(req: Pick<ExpressRequest, "originalUrl" | "url">): URL | null {
  try {
    return new URL(`http://host.invalid${req.originalUrl ?? req.url}`);
  } catch {
    return null;
  }
}

/**
 * The query as Remix reads it: the search of the URL @remix-run/express builds from `req.originalUrl`, every key of it
 * (URLSearchParams). Never Express's `req.query`, whose parser stops at 1,000 keys, so a key after them would be seen
 * by Remix and not by the host.
 */
export function remixSearchParams(req: Pick<ExpressRequest, "originalUrl" | "url">): URLSearchParams {
  return remixUrl(req)?.searchParams ?? new URLSearchParams();
}

/**
 * The path Remix routes: that URL's pathname, with dot segments (`..`, `%2e%2e`, backslashes) resolved as the URL
 * parser resolves them. Never Express's `req.path`, the raw text, on which `/scim/v2/../../user/tokens` starts with
 * an exempt prefix though it routes to a cookie action.
 */
export function routedPathname(req: Pick<ExpressRequest, "originalUrl" | "url">): string | null {
  return remixUrl(req)?.pathname ?? null;
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
 * CSRF: a non-GET request must come from one of `allowedOrigins` or from the origin it was addressed to. The token
 * API and SCIM (which read no cookie) and the SAML assertion consumer (the IdP's signed response is the proof) take
 * cross-site requests; which route a request reaches is decided on the path Remix routes (`routedPathname`), never on
 * the raw text. The Origin header is passed on as sent, so each route's own check (`assertSameOrigin`) and Remix's
 * (Origin against the forwarded or plain Host) see what the browser said. The one exception is the SAML consumer's
 * POST, whose Origin is the IdP's: Remix would refuse it with a 500, so it reaches that one route without one.
 */
export function rejectCrossOrigin(options: { allowedOrigins: readonly string[]; ssoMode: string }): RequestHandler {
  return (req, res, next) => {
    const self = requestOrigin(req);
    const path = routedPathname(req);
    const ok =
      (path !== null && isCrossSitePostAllowed(path, options.ssoMode)) ||
      isSameOriginRequest({
        method: req.method,
        origin: req.get("origin") ?? null,
        referer: req.get("referer") ?? null,
        allowed: self ? [...options.allowedOrigins, self] : options.allowedOrigins,
      });
    if (!ok) return sendMessagePage(res, 403, messages.forbiddenTitle, messages.crossOriginRefused);
    if (path !== null && isSamlConsumer(path, options.ssoMode)) {
      delete req.headers.origin;
      return next();
    }
    // Remix checks a page's or a data request's action itself: Origin's host must be the Host it is handed (the
    // forwarded one when trusted), exactly, or it answers 500. What it would refuse is refused here, as a 403. The
    // API's own requests (no `.data`) are resource requests, which it does not check.
    const origin = req.get("origin");
    const remixChecks =
      REMIX_CHECKED_METHODS.has(req.method) &&
      origin !== undefined &&
      !(path !== null && isTokenApiPath(path) && !/\.data$/i.test(path));
    if (remixChecks && hostOf(origin) !== (req.get("x-forwarded-host")?.split(",")[0]?.trim() || req.get("host")))
      return sendMessagePage(res, 403, messages.forbiddenTitle, messages.crossOriginRefused);
    next();
  };
}

/** The methods whose page and data requests Remix's own CSRF check covers. */
const REMIX_CHECKED_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** An Origin header's host (as Remix reads it: `new URL(origin).host`), or the header itself when it is no URL. */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}
