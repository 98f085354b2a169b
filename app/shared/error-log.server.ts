import { createLogger, errorFields, type Logger, type LogLevel, loggablePath } from "./logger.server";

/**
 * Unexpected errors, one structured line each: request id, method, path, message, stack and cause. The same error
 * repeated (same name, message and top stack frame, with numbers and ids blanked) is logged in full the first time
 * in a window and then counted: one "error repeated" line per window says how often and for which request last, so
 * one bad client or a dead dependency cannot flood the log.
 */

export type ErrorContext = { requestId?: string; method?: string; path?: string; [key: string]: unknown };

export type ErrorReporter = {
  report(error: unknown, context?: ErrorContext, message?: string, level?: "error" | "warn"): void;
  /** Logs the pending repeat counts now (also done every window, and at shutdown). */
  flush(): void;
  stop(): void;
};

/** What makes two errors "the same": numbers, hex ids and quoted values do not. */
export function errorSignature(error: unknown, message = "unhandled error"): string {
  const fields = errorFields(error);
  const topFrame = String(fields.stack ?? "")
    .split("\n")
    .find((line) => line.trim().startsWith("at "));
  const blank = (text: string) => text.replace(/"[^"]*"|'[^']*'/g, "''").replace(/\b[0-9a-f]{8,}\b|\d+/gi, "#");
  return [message, fields.errorName ?? "", blank(String(fields.error ?? "")), topFrame?.trim() ?? ""].join("|");
}

export function createErrorReporter(
  logger: Logger,
  options: { windowMs?: number; maxKinds?: number; now?: () => number } = {},
): ErrorReporter {
  const windowMs = options.windowMs ?? 60_000;
  const maxKinds = options.maxKinds ?? 500;
  const now = options.now ?? Date.now;
  const seen = new Map<
    string,
    { firstAt: number; repeats: number; last?: ErrorContext; error: string; message: string; level: "error" | "warn" }
  >();

  const flush = () => {
    const at = now();
    for (const [key, entry] of seen) {
      if (entry.repeats > 0) {
        logger[entry.level]("error repeated", {
          originalMsg: entry.message,
          error: entry.error,
          count: entry.repeats,
          since: new Date(entry.firstAt).toISOString(),
          lastRequestId: entry.last?.requestId,
          lastPath: entry.last?.path,
        });
        entry.repeats = 0;
        entry.firstAt = at;
      } else if (at - entry.firstAt >= windowMs) {
        seen.delete(key);
      }
    }
  };
  const timer = setInterval(flush, windowMs);
  timer.unref();

  return {
    report(error, given = {}, message = "unhandled error", level = "error") {
      // A path may carry a download token or a reset code, in any spelling the router accepts.
      const context = typeof given.path === "string" ? { ...given, path: loggablePath(given.path) } : given;
      const key = errorSignature(error, message);
      const entry = seen.get(key);
      if (entry && now() - entry.firstAt < windowMs) {
        entry.repeats++;
        entry.last = context;
        return;
      }
      if (entry && entry.repeats > 0) flush();
      if (!entry && seen.size >= maxKinds) flush();
      const fields = errorFields(error);
      seen.set(key, { firstAt: now(), repeats: 0, error: String(fields.error), message, level });
      logger[level](message, { ...context, ...fields });
    },
    flush,
    stop() {
      clearInterval(timer);
      flush();
    },
  };
}

let appReporter: ErrorReporter | undefined;

/** The process's reporter for errors raised inside the app (Remix's handleError), at LOG_LEVEL. */
export function appErrorReporter(): ErrorReporter {
  const level = (process.env.LOG_LEVEL as LogLevel | undefined) ?? "info";
  appReporter ??= createErrorReporter(
    createLogger(["debug", "info", "warn", "error", "silent"].includes(level) ? level : "info"),
  );
  return appReporter;
}
