/**
 * Structured logs: one JSON object per line on stdout (errors on stderr), which any log
 * collector (CloudWatch, Loki, ...) indexes without parsing rules.
 */

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

export function createLogger(level: LogLevel, write: (line: string, isError: boolean) => void = defaultWrite): Logger {
  const emit = (at: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>) => {
    if (order[at] < order[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }), order[at] >= order.error);
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
  };
}

function defaultWrite(line: string, isError: boolean) {
  (isError ? process.stderr : process.stdout).write(`${line}\n`);
}

/** An Error as plain log fields. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.message, stack: error.stack };
  return { error: String(error) };
}
