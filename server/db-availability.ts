import type { ServerBuild } from "@remix-run/node";
import type { RequestHandler } from "express";
import { deployTexts } from "../app/messages";
import { errorFields, type Logger } from "../app/shared/logger.server";
import { sendMessagePage } from "./request-guards";

/**
 * What the web side does when MongoDB goes away (stopped, unreachable, primary stepping down, disk full): the
 * request that meets the failure answers 503 with a clear page instead of a 500, and until a ping succeeds again
 * every further page request gets that 503 at once (no request waits for a database that is not there). A probe
 * pings once a second while it is down; the first success lets requests through again.
 */

/** Driver errors that mean "the database cannot be reached or cannot serve right now", not "this request is wrong". */
const UNAVAILABLE_ERROR_NAMES = new Set([
  "MongoServerSelectionError",
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoTopologyClosedError",
  "MongoNotConnectedError",
  "MongoPoolClearedError",
  "MongoWaitQueueTimeoutError",
]);

/**
 * Server codes with the same meaning: HostUnreachable, HostNotFound, NetworkTimeout, ShutdownInProgress,
 * PrimarySteppedDown, SocketException, NotWritablePrimary, InterruptedAtShutdown, InterruptedDueToReplStateChange,
 * NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary, OutOfDiskSpace.
 */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436, 14031]);

const SOCKET_ERROR_CODES = new Set([
  "EPIPE",
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "ENOTCONN",
  "ERR_STREAM_DESTROYED",
  "ERR_STREAM_WRITE_AFTER_END",
]);
const DRIVER_CONNECTION_FRAME = /[\\/]mongodb[\\/]lib[\\/]cmap[\\/]/;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const e = error as { name?: unknown; code?: unknown; cause?: unknown; errorLabels?: unknown };
  if (typeof e.name === "string" && UNAVAILABLE_ERROR_NAMES.has(e.name)) return true;
  if (
    typeof e.code === "number" &&
    UNAVAILABLE_CODES.has(e.code) &&
    typeof e.name === "string" &&
    e.name.startsWith("Mongo")
  )
    return true;
  // A socket error raised inside the driver's connection code (a write after the database or a proxy closed the
  // connection surfaces as Node's EPIPE, not wrapped as a MongoNetworkError).
  if (
    typeof e.code === "string" &&
    SOCKET_ERROR_CODES.has(e.code) &&
    DRIVER_CONNECTION_FRAME.test(String((error as Error).stack))
  )
    return true;
  // ENOSPC surfaced by a database that reports the OS error as is.
  if (
    typeof e.name === "string" &&
    e.name.startsWith("Mongo") &&
    /ENOSPC|no space left on device/i.test(String((error as Error).message))
  )
    return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

export const RETRY_AFTER_SECONDS = 5;

/** A thrown Response: Remix answers with its status and the route's error boundary shows the page. */
function unavailableResponse(): Response {
  return new Response(deployTexts.unavailable, {
    status: 503,
    statusText: "Service Unavailable",
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Content-Type": "text/plain; charset=utf-8" },
  });
}

export type DatabaseGate = {
  readonly down: boolean;
  /** Records a failure seen by a request; starts probing. */
  markDown(error: unknown, context?: Record<string, unknown>): void;
  /** 503 for page and data requests while the database is down (health probes and static files pass). */
  middleware: RequestHandler;
  /** The same build with every loader and action answering 503 when they meet an unavailable database. */
  wrapBuild(build: ServerBuild): ServerBuild;
  stop(): void;
};

export function createDatabaseGate(options: {
  ping: () => Promise<boolean>;
  logger: Logger;
  probeIntervalMs?: number;
}): DatabaseGate {
  const probeIntervalMs = options.probeIntervalMs ?? 1_000;
  let down = false;
  let since = 0;
  let refused = 0;
  let probe: NodeJS.Timeout | undefined;
  let probing = false;

  const up = () => {
    if (!down) return;
    down = false;
    clearInterval(probe);
    probe = undefined;
    options.logger.info("database available again", { downForMs: Date.now() - since, refusedRequests: refused });
  };

  const gate: DatabaseGate = {
    get down() {
      return down;
    },
    markDown(error, context = {}) {
      if (down) return;
      down = true;
      since = Date.now();
      refused = 0;
      options.logger.error("database unavailable", {
        ...context,
        ...errorFields(error),
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
      probe = setInterval(() => {
        if (probing) return;
        probing = true;
        options
          .ping()
          .then((ok) => ok && up())
          .catch(() => undefined)
          .finally(() => (probing = false));
      }, probeIntervalMs);
      probe.unref();
    },
    middleware(req, res, next) {
      // Single-fetch data requests (`.data`) go on to Remix, whose wrapped loaders answer the 503 in the encoding
      // the browser's router reads; the route manifest (lazy route discovery) needs no database; documents and
      // resource requests get the page here.
      if (
        !down ||
        req.path === "/healthz" ||
        req.path === "/readyz" ||
        req.path === "/__manifest" ||
        req.path.endsWith(".data")
      )
        return next();
      refused++;
      res.set("Retry-After", String(RETRY_AFTER_SECONDS));
      sendMessagePage(res, 503, deployTexts.unavailableTitle, deployTexts.unavailable);
    },
    wrapBuild(build) {
      const guard =
        <A extends { request: Request }>(fn: (args: A) => unknown) =>
        async (args: A) => {
          // While it is down, nothing waits for the database.
          if (down) throw unavailableResponse();
          try {
            return await fn(args);
          } catch (error) {
            if (!isDatabaseUnavailable(error)) throw error;
            gate.markDown(error, {
              requestId: args.request.headers.get("x-request-id") ?? undefined,
              path: new URL(args.request.url).pathname,
            });
            throw unavailableResponse();
          }
        };
      const routes = Object.fromEntries(
        Object.entries(build.routes).map(([id, route]) => {
          const module = { ...route.module };
          if (module.loader) module.loader = guard(module.loader) as typeof module.loader;
          if (module.action) module.action = guard(module.action) as typeof module.action;
          return [id, { ...route, module }];
        }),
      );
      return { ...build, routes };
    },
    stop() {
      clearInterval(probe);
    },
  };
  return gate;
}
