import type { Server, ServerResponse } from "node:http";
import type { RequestHandler } from "express";

/**
 * Graceful drain of the HTTP host on SIGTERM: stop accepting connections, let the requests in flight
 * finish, and close each connection as soon as its response is sent. Without the last part a client's
 * keep-alive connection would hold `server.close()` open until the keep-alive timeout.
 */
export function createDrain() {
  let draining = false;
  let server: Server | undefined;
  const inFlight = new Set<ServerResponse>();

  const middleware: RequestHandler = (_req, res, next) => {
    if (draining) res.setHeader("Connection", "close");
    inFlight.add(res);
    res.on("close", () => inFlight.delete(res));
    // Once the response is out, the connection is idle and may go.
    res.on("finish", () => {
      if (draining) server?.closeIdleConnections();
    });
    next();
  };

  return {
    middleware,
    get draining() {
      return draining;
    },
    /** Resolves once every in-flight request has been answered and every connection is closed. */
    drain(httpServer: Server): Promise<void> {
      draining = true;
      server = httpServer;
      // Responses still to be written tell the client not to reuse the connection.
      for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      return new Promise((resolve, reject) => httpServer.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
