import { Writable } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/components/nonce";
import { appErrorReporter } from "../server/error-log";

/** How long a streamed response may wait for deferred data before it is cut off. */
export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Pages carry the signed-in user's data: never stored, so Back after Logout asks the server again (and gets
  // the sign-in page), and a shared cache never keeps one user's page for another.
  responseHeaders.set("Cache-Control", "private, no-store");
  const nonce = loadContext.cspNonce ?? "";

  // The whole document is rendered before it is sent, as one buffer. No route defers data (every loader
  // returns what its page shows), so streaming would only flush the shell a moment earlier; it would also
  // hand the compression and the socket React's hundreds of small chunks, each compressed and written on its
  // own (a seventh of a small page's CPU, measured with bench/load/cpu.ts).
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let shellRendered = false;
    // The status is decided when the shell is ready, as when the shell was sent at once: an error inside a
    // Suspense boundary after it (React renders that part again in the browser) is logged, and a 503 or 404
    // the routes answered stays what it is.
    let status = responseStatusCode;
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        done();
      },
      final(done) {
        const body = Buffer.concat(chunks);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        responseHeaders.set("Content-Length", String(body.byteLength));
        resolve(new Response(body, { headers: responseHeaders, status }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
          status = responseStatusCode;
        },
        onAllReady() {
          clearTimeout(timer);
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          // Before the shell: an error in a Suspense boundary makes the page a 500. After it: logged only.
          if (shellRendered) logServerError(error, request);
          else responseStatusCode = 500;
        },
      },
    );
    // Whatever is still pending then is cut off: its Suspense fallback is sent, and the document completes.
    const timer = setTimeout(abort, streamTimeout + 1_000);
  });
}

/** Single-fetch data (`.data`) answers are never stored either. */
export function handleDataRequest(response: Response): Response {
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "private, no-store");
  return response;
}

/**
 * Unexpected loader/action/render errors, as one JSON log line. Aborted requests are not errors, and neither are
 * the 4xx answers Remix raises itself (a POST to a route without an action: 405; no loader: 400).
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logServerError(error, request);
}

function logServerError(error: unknown, request: Request) {
  // One structured line per error (request id, message, stack, cause), repeats summarised, secrets redacted.
  appErrorReporter().report(error instanceof Error ? error : new Error(describe(error)), {
    requestId: request.headers.get("x-request-id") ?? undefined,
    method: request.method,
    path: new URL(request.url).pathname,
  });
}

/** A readable text for a thrown value that is not an Error (never "[object Object]"). */
function describe(value: unknown): string {
  if (isRouteErrorResponse(value)) return `${value.status} ${value.statusText}`;
  if (typeof value === "object" && value !== null) {
    try {
      return JSON.stringify(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
  return String(value);
}
