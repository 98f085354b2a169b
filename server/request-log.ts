import crypto from "node:crypto";
import type { RequestHandler } from "express";
import { type Logger, loggablePath } from "../app/shared/logger.server";

// Paths whose segments carry secrets (/download/{token}, /recovery/{code}) are logged with the secret replaced; the
// error log uses the same function (app/shared/error-log.server.ts).
export { loggablePath };

const acceptableId = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request an id (the incoming X-Request-Id when it looks sane, else a new one),
 * echoes it in the response and logs one line when the response ends.
 * Health probes are logged at debug level so they do not drown the rest.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const incoming = req.get("x-request-id");
    const requestId = incoming && acceptableId.test(incoming) ? incoming : crypto.randomUUID();
    req.headers["x-request-id"] = requestId;
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);

    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const fields = {
        requestId,
        method: req.method,
        path: loggablePath(req.path),
        status: res.headersSent ? res.statusCode : 499,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        aborted: !res.writableFinished || undefined,
      };
      if (req.path === "/healthz" || req.path === "/readyz") logger.debug("request", fields);
      else logger.info("request", fields);
    };
    res.on("finish", done);
    res.on("close", done);
    next();
  };
}
