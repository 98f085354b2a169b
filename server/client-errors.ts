import type { Duplex } from "node:stream";
import type { ErrorRequestHandler } from "express";
import { deployTexts, messages } from "../app/messages";
import type { ErrorReporter } from "../app/shared/error-log.server";
import { sendMessagePage } from "./request-guards";

/**
 * Requests that never reach Express and errors that escape it, answered like the rest of the portal: a short
 * Portuguese page with a 4xx, and a 500 only for the host's own faults, each logged once (repeats summarised).
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function rawPage(status: number, reason: string, title: string, text: string): string {
  const body =
    `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
  return (
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** The answer to a request Node's parser refused: 431 for headers over the limit, 408 for a slow one, else 400. */
export function clientErrorStatus(code: string | undefined): 400 | 408 | 431 {
  if (code === "HPE_HEADER_OVERFLOW") return 431;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  return 400;
}

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, errors: ErrorReporter): void {
  // A client that went away needs no answer and is not worth a log line.
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(error.code);
  const page =
    status === 431
      ? rawPage(431, "Request Header Fields Too Large", deployTexts.headersTooLargeTitle, deployTexts.headersTooLarge)
      : status === 408
        ? rawPage(408, "Request Timeout", messages.badRequestTitle, deployTexts.malformedRequest)
        : rawPage(400, "Bad Request", messages.badRequestTitle, deployTexts.malformedRequest);
  // The parser's reason, not its stack: a malformed request is the client's fault, not the host's.
  errors.report(
    error.code ?? error.message,
    { status, code: error.code, bytes: (error as { bytesParsed?: number }).bytesParsed },
    "malformed request",
    "warn",
  );
  socket.end(page);
}

/** Express's last error handler: 4xx errors keep their status (bad encoding in a URL, a body too large…). */
export function hostErrorHandler(errors: ErrorReporter): ErrorRequestHandler {
  return (error, req, res, next) => {
    // The client gave the request up (a page left while a file downloaded): nobody to answer, nothing to report.
    if ((error as { code?: unknown }).code === "ECONNABORTED") {
      if (!res.writableEnded) res.end();
      return;
    }
    if (res.headersSent) return next(error);
    const status = Number(
      (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode,
    );
    if (status >= 400 && status < 500)
      return sendMessagePage(res, status, messages.badRequestTitle, deployTexts.malformedRequest);
    errors.report(error, { requestId: String(res.locals.requestId ?? ""), method: req.method, path: req.path });
    sendMessagePage(res, 500, messages.serverErrorTitle, messages.serverError);
  };
}
