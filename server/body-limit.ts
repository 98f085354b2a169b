import type { IncomingMessage } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/router";
import type { Request as ExpressRequest, RequestHandler } from "express";
import { FORECAST_SAVE_BODY_MAX_BYTES } from "../app/features/forecast/forecast-save";
import { PREPARERS_TEMPLATE_MAX_BYTES } from "../app/features/forecast/preparers/limits";
import { VERSION_DELETE_FORM_MAX_BYTES, VERSION_SAVE_FORM_MAX_BYTES } from "../app/features/forecast/versions/limits";
import { deployTexts } from "../app/messages";
import { COCKPIT_FILE_MAX_BYTES } from "../app/models/reports.fields";
import { type RouteManifest, routeTree } from "../app/platform/auth/return-to.server";
import type { RouteId } from "../app/route-ids";
import { RETURNED_FILE_MAX_BYTES } from "../app/shared/excel/round-trip.server";
import { sendMessagePage } from "./request-guards";

/**
 * The request body limit (REQUEST_BODY_MAX_BYTES, 1 MB by default). `request.formData()` buffers whatever body it is
 * given, so the host holds every body of a non-GET request until it is complete, counting the bytes the HTTP parser
 * delivers (after chunked decoding, so a body without Content-Length counts too), and answers 413 as soon as it
 * passes the limit: the route never sees it, and the bytes after it are read and dropped, not kept.
 *
 * Routes that take files keep their own limits: `own` routes stream their body under limits of their own (the
 * uploads, the S3 tickets, the registration); the others get a larger host limit just above the check they make
 * on Content-Length (which then answers first, with its own message). The route is the one Remix matches — the
 * route manifest, matched by the router's own matcher (case-insensitive, decoded, `.data` requests as single
 * fetch strips them) — never a rule on the URL's text.
 */

/** "own": the route streams its body under limits of its own; a number: the host's limit for that route's bodies. */
export type BodyLimit = number | "own";

/** Room for a multipart body's fields and boundaries around its one file. */
const MULTIPART_SLACK = 128 * 1024;
const RETURNED_EXCEL = RETURNED_FILE_MAX_BYTES + MULTIPART_SLACK;

/** Routes whose action takes a file or a body past the default. Every other route gets the default limit. */
export const ROUTE_BODY_LIMITS: Partial<Record<RouteId, BodyLimit>> = {
  "routes/api.upload": "own",
  "routes/api.uploads.s3": "own",
  "routes/api.files.register": "own",
  // The API: an upload streams its own limit (the per-file one); no other operation reads a body.
  "routes/api.v1.$": "own",
  "routes/ij.plan_edit.excel": RETURNED_EXCEL,
  "routes/ij.rh_edit.$filial.excel": RETURNED_EXCEL,
  "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel": RETURNED_EXCEL,
  "routes/repo.master-data.excel": RETURNED_EXCEL,
  "routes/repo.master-data.canal.excel": RETURNED_EXCEL,
  "routes/repo.master-data.planejamento.excel": RETURNED_EXCEL,
  "routes/ij.cockpit_preview": COCKPIT_FILE_MAX_BYTES + MULTIPART_SLACK,
  // The forecast preparers' filled template (XLSX or CSV).
  "routes/ij.forecast_preparers.modelo": PREPARERS_TEMPLATE_MAX_BYTES + MULTIPART_SLACK,
  // The review's save: changed cells as JSON, checked by the route against the same limit.
  "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat": FORECAST_SAVE_BODY_MAX_BYTES,
  // A version's name (save) and a deletion's reason, read by the routes against the same limits.
  "routes/ij.forecast_consolidado": VERSION_SAVE_FORM_MAX_BYTES,
  "routes/ij.forecast_versoes": VERSION_DELETE_FORM_MAX_BYTES,
};

const trees = new WeakMap<RouteManifest, ReturnType<typeof routeTree>>();

/**
 * The limit for a request to `pathname` with the query `search`: that of the route whose action Remix runs, else
 * `fallback`. As the server runtime picks it: a resource route (no component, no error boundary) is the matched leaf;
 * otherwise an index leaf only when the query holds a naked `index` key (any of its keys, as URLSearchParams reads
 * them), else the deepest match that adds to the path (the router's getTargetMatch).
 */
export function bodyLimitFor(
  build: Pick<ServerBuild, "routes" | "basename">,
  pathname: string,
  fallback: number,
  search = "",
): BodyLimit {
  let tree = trees.get(build.routes);
  if (!tree) trees.set(build.routes, (tree = routeTree(build.routes)));
  // Single fetch: `/x.data` is the data request of `/x` (`/_root.data` of `/`), as the server runtime reads it.
  const dataRequest = pathname.endsWith(".data");
  const path = dataRequest ? pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") : pathname;
  const matches = matchRoutes(tree, path, build.basename);
  if (!matches || matches.length === 0) return fallback;
  const leaf = matches[matches.length - 1].route;
  const module = build.routes[leaf.id ?? ""]?.module;
  const resource = !dataRequest && module?.default == null && module?.ErrorBoundary == null;
  const indexAction = leaf.index && new URLSearchParams(search).getAll("index").some((v) => v === "");
  const target =
    resource || indexAction
      ? leaf
      : matches.filter((m, i) => i === 0 || (m.route.path && m.route.path.length > 0)).at(-1)?.route;
  return ROUTE_BODY_LIMITS[target?.id as RouteId] ?? fallback;
}

type Outcome = "complete" | "too-large";

/**
 * Takes over the delivery of `req`'s body: the parser's chunks are counted and kept in the request (never past
 * `maxBytes`) without waiting for a reader, until the body ends (`complete`) or passes the limit (`too-large`; the
 * rest is then dropped as it arrives). `stalled`: the parser stopped reading because the request's buffer was full.
 */
function holdBody(req: IncomingMessage, maxBytes: number, stalled: boolean, done: (outcome: Outcome) => void): void {
  let received = req.readableLength;
  if (req.complete) {
    done(received > maxBytes ? "too-large" : "complete");
    return;
  }
  if (received > maxBytes) {
    refuse();
    return;
  }
  const push = req.push;
  let refused = false;
  function refuse() {
    refused = true;
    done("too-large");
  }
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null) {
      delete (req as { push?: unknown }).push;
      const more = push.call(req, null);
      if (!refused) process.nextTick(done, "complete");
      return more;
    }
    if (refused) return true;
    received += (chunk as Buffer).length;
    if (received > maxBytes) {
      refuse();
      return true;
    }
    push.call(req, chunk, encoding);
    // Keep reading: the body waits here, within the limit, until it is complete.
    return true;
  };
  if (stalled) req.socket?.resume();
}

/**
 * Until the route is known (the development build is loaded per request), the body is only counted and left to the
 * parser's own back pressure. Returns how to take it over or give it back.
 */
function watchBody(req: IncomingMessage) {
  const push = req.push;
  let stalled = req.readableLength >= req.readableHighWaterMark;
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    const more = push.call(req, chunk, encoding);
    stalled = !more && chunk !== null;
    return more;
  };
  return {
    release() {
      delete (req as { push?: unknown }).push;
      return stalled;
    },
  };
}

export type BodyLimitOptions = {
  /** The limit of every route without one of its own (REQUEST_BODY_MAX_BYTES). */
  maxBytes: number;
  /** The limit for this request's route. */
  limitFor: (req: ExpressRequest) => BodyLimit | Promise<BodyLimit>;
  /** Called once for each refused request. */
  report?: (req: ExpressRequest, limit: number) => void;
};

const megabytes = (bytes: number) => Math.max(1, Math.round(bytes / (1024 * 1024)));

/** The host's middleware: see the module's comment. GET and HEAD bodies are never read by a route and pass. */
export function limitRequestBodies(options: BodyLimitOptions): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const watching = watchBody(req);
    const decide = (limit: BodyLimit) => {
      const stalled = watching.release();
      if (limit === "own") return next();
      const tooLarge = () => {
        options.report?.(req, limit);
        res.set("Connection", "close");
        sendMessagePage(res, 413, deployTexts.bodyTooLargeTitle, deployTexts.bodyTooLarge(megabytes(limit)));
      };
      const declared = Number(req.headers["content-length"]);
      if (Number.isFinite(declared) && declared > limit) return tooLarge();
      holdBody(req, limit, stalled, (outcome) => (outcome === "complete" ? next() : tooLarge()));
    };
    let limit: BodyLimit | Promise<BodyLimit>;
    try {
      limit = options.limitFor(req);
    } catch {
      limit = options.maxBytes;
    }
    if (typeof limit === "number" || limit === "own") decide(limit);
    else limit.then(decide, () => decide(options.maxBytes));
  };
}

/** The limit for a request to the Remix build (the build itself, or the development server's loader of it). */
export function limitFromBuild(
  build: ServerBuild | (() => Promise<ServerBuild>),
  maxBytes: number,
): BodyLimitOptions["limitFor"] {
  // The URL as @remix-run/express builds it from `req.originalUrl`: its path, and its whole query (never `req.query`).
  const limitFor = (built: ServerBuild, req: ExpressRequest) => {
    const url = new URL(`http://host.invalid${req.originalUrl}`);
    return bodyLimitFor(built, url.pathname, maxBytes, url.search);
  };
  if (typeof build === "function") return async (req) => limitFor(await build(), req);
  return (req) => limitFor(build, req);
}
