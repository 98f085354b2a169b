/**
 * Structured logs: one JSON object per line on stdout (errors on stderr), which any log
 * collector (CloudWatch, Loki, ...) indexes without parsing rules. Every line goes through
 * `redact` first, so download tokens, reset codes, presigned signatures and passwords never
 * reach the log, whoever wrote the line.
 */

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

/** Secrets that travel in URLs, query strings, form bodies and JSON, and what replaces each. */
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  // Path segments: /download/{token}, /recovery/{code} (any case: the router matches case-insensitively)
  [/\/download\/[^/?#\s"\\]+/gi, "/download/:token"],
  [/\/recovery\/[^/?#\s"\\]+/gi, "/recovery/:code"],
  // Presigned URLs and query strings
  [
    /([?&](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|token|code|password|ticket)=)[^&\s"\\#]+/gi,
    "$1[redacted]",
  ],
  // JSON and key=value fields named like secrets (also inside an escaped JSON string)
  [
    /(\\?"(?:password|newPassword|confirmPassword|currentPassword|code|resetCode|token|ticket|challenge|secret|authorization|cookie)\\?"\s*:\s*\\?")(?:[^"\\]|\\(?!"))*(\\?")/gi,
    "$1[redacted]$2",
  ],
  [/\b((?:password|confirmPassword|newPassword|code|token|ticket|challenge)=)[^&\s"\\]+/gi, "$1[redacted]"],
  // "Seu código: 123456" and similar six-digit codes in mail text
  [/(c[oó]digo:?\s*)(?:\d{6}|[0-9A-HJKMNP-TV-Z]{26})\b/gi, "$1[redacted]"],
];

/** The routes whose one parameter is a secret, and what the log shows instead. */
const SECRET_PATH_PARAMS: Record<string, string> = { download: ":token", recovery: ":code" };

/**
 * A request path as it may be logged: /download/{token} and /recovery/{code} with the secret replaced, spelled the
 * way the router reads them (decoded, any case), so "/Download/…" or "/%64ownload/…" hide it too. Other paths are
 * unchanged.
 */
export function loggablePath(path: string): string {
  const decoded = path.replace(/%[0-9a-f]{2}/gi, (encoded) => {
    try {
      return decodeURIComponent(encoded);
    } catch {
      return encoded;
    }
  });
  const match = /^\/+([^/]+)\/(.+)$/s.exec(decoded);
  const name = match?.[1].toLowerCase() ?? "";
  if (!match || !Object.hasOwn(SECRET_PATH_PARAMS, name)) return path;
  return `/${name}/${SECRET_PATH_PARAMS[name]}${match[2].endsWith(".data") ? ".data" : ""}`;
}

/** The text with every known kind of secret replaced. */
export function redact(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

export function createLogger(level: LogLevel, write: (line: string, isError: boolean) => void = defaultWrite): Logger {
  const emit = (at: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>) => {
    if (order[at] < order[level]) return;
    write(
      redact(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields })),
      order[at] >= order.error,
    );
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

/** LOG_LEVEL as the environment gives it (app services log before and without the host). */
function envLevel(): LogLevel {
  const value = process.env.LOG_LEVEL;
  return value && value in order ? (value as LogLevel) : "info";
}

/** A logger for one component of the app (storage, mail…): each line carries `component`. */
export function componentLogger(component: string): Logger {
  const at = (name: keyof Logger) => (msg: string, fields?: Record<string, unknown>) =>
    createLogger(envLevel())[name](msg, { component, ...fields });
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** An Error as plain log fields, with its cause chain and, for AWS and network errors, their codes. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  const e = error as Error & {
    code?: unknown;
    $metadata?: { httpStatusCode?: number; requestId?: string };
    cause?: unknown;
  };
  const fields: Record<string, unknown> = { error: e.message, errorName: e.name, stack: e.stack };
  if (typeof e.code === "string" || typeof e.code === "number") fields.errorCode = e.code;
  if (e.$metadata?.httpStatusCode) fields.httpStatus = e.$metadata.httpStatusCode;
  if (e.cause !== undefined)
    fields.cause = e.cause instanceof Error ? `${e.cause.name}: ${e.cause.message}` : String(e.cause);
  return fields;
}
