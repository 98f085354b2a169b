import type { Server, ServerResponse } from "node:http";
import type { RequestHandler } from "express";

/**
 * Graceful drain of the HTTP host on SIGTERM: stop accepting connections, let the requests in flight
 * finish, and close each connection as soon as its response is sent. Without the last part a client's
 * keep-alive connection would hold `server.close()` open until the keep-alive timeout.
 *
 * The drain is over when the server is closed AND every request that reached the host has ended its response
 * (`res.end`, even on a connection the client dropped meanwhile), or at the grace deadline: what runs after it
 * (closing the database) never pulls the ground from under a handler still at work.
 */
export function createDrain() {
  let draining = false;
  let server: Server | undefined;
  /** Responses whose handler has not ended them yet (a dropped connection does not count as ended). */
  const unfinished = new Set<ServerResponse>();
  let settled: (() => void) | undefined;

  const middleware: RequestHandler = (_req, res, next) => {
    if (draining) res.setHeader("Connection", "close");
    unfinished.add(res);
    const done = () => {
      if (!unfinished.delete(res)) return;
      if (unfinished.size === 0) settled?.();
    };
    const response = res as unknown as ServerResponse;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.end = ((...args: unknown[]) => {
      const result = end(...args);
      done();
      return result;
    }) as ServerResponse["end"];
    // Once the response is out, the connection is idle and may go.
    res.on("finish", () => {
      done();
      if (draining) server?.closeIdleConnections();
    });
    next();
  };

  return {
    middleware,
    get draining() {
      return draining;
    },
    /** Requests whose response is not ended yet. */
    get inFlight() {
      return unfinished.size;
    },
    /**
     * Resolves once the server is closed and every request in flight has ended its response, or when `graceMs` has
     * passed (then the caller cuts what is left).
     */
    drain(httpServer: Server, graceMs = Number.POSITIVE_INFINITY): Promise<void> {
      draining = true;
      server = httpServer;
      // Responses still to be written tell the client not to reuse the connection.
      for (const res of unfinished) if (!res.headersSent) res.setHeader("Connection", "close");
      const closed = new Promise<void>((resolve, reject) =>
        httpServer.close((error) => (error ? reject(error) : resolve())),
      );
      const ended = new Promise<void>((resolve) => {
        if (unfinished.size === 0) return resolve();
        settled = resolve;
      });
      const work = Promise.all([closed, ended]).then(() => undefined);
      if (!Number.isFinite(graceMs)) return work;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
        timer.unref();
      });
      return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
    },
  };
}
