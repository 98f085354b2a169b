import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * The host's HTTP server and its connection timeouts. The load balancer (nginx's upstream pool, an ALB) keeps
 * connections to the host open and reuses them; a request it sends on a connection the host is closing at that
 * moment fails with 502, and nginx does not retry a POST. So the host's idle time must be longer than the balancer's:
 * the balancer then always gives an idle connection up first (docs/operations.md, "Idle connections").
 */

/** Node's own request timeout (its default since Node 18), stated so the rule below is checked against it. */
export const REQUEST_TIMEOUT_MS = 300_000;

/** How much longer than the keep-alive time the host waits for a request's headers. */
const HEADERS_MARGIN_MS = 1_000;

export type HostServerTimeouts = { keepAliveTimeout: number; headersTimeout: number; requestTimeout: number };

/**
 * The timeouts for a keep-alive time of `keepAliveTimeoutMs` (HTTP_KEEP_ALIVE_TIMEOUT_MS).
 *
 * Node 20 measures headersTimeout from a request's first byte (an idle kept-alive connection is not subject to it);
 * it is still kept above keepAliveTimeout, as the load balancers' guides ask, so that no Node version cuts a reused
 * connection before its idle time is over. Node refuses a headersTimeout above requestTimeout (ERR_OUT_OF_RANGE at
 * createServer), hence the configuration's bound of 299 s.
 */
export function hostServerTimeouts(keepAliveTimeoutMs: number): HostServerTimeouts {
  return {
    keepAliveTimeout: keepAliveTimeoutMs,
    headersTimeout: keepAliveTimeoutMs + HEADERS_MARGIN_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
  };
}

/**
 * The host's server. On SIGTERM `server.close()` (server/drain.ts) still ends idle kept-alive connections at once
 * (Node 19+ closes idle connections on close), so the long keep-alive time never holds a shutdown.
 */
export function createHostServer(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  keepAliveTimeoutMs: number,
): Server {
  return createServer(hostServerTimeouts(keepAliveTimeoutMs), (req, res) => {
    res.once("finish", () => discardUnreadBody(req));
    listener(req, res);
  });
}

/**
 * A response can go out before its request's body was read to the end: an upload refused part-way (the size limit
 * while streaming, COD.2's 413) stops reading and leaves the body paused under the reader that stopped. Node discards
 * the rest of a body only when nothing ever read it; this one would stay paused, and the browser's next request on the
 * kept-alive connection would wait behind it until the keep-alive time ended the connection (75 s). So the rest is
 * read and discarded as Node does for an unread body: the readers that stopped are detached and the body flows.
 */
function discardUnreadBody(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  req.removeAllListeners("data");
  // Bounded, as a lingering close is: a client that goes on sending past DISCARD_MAX_BYTES or DISCARD_MAX_MS (a body
  // far over the limit, an endless one) loses the connection instead of holding it.
  let discarded = 0;
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, DISCARD_MAX_MS);
  timer.unref();
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) cut();
  });
  // Only the body's end stops the clock (an IncomingMessage also emits "close" once its response is done).
  req.once("end", () => clearTimeout(timer));
  req.resume();
}

/** How much of an unread body is read and discarded after its response, at most, before the connection is cut. */
export const DISCARD_MAX_BYTES = 16 * 1024 * 1024;
export const DISCARD_MAX_MS = 5_000;
