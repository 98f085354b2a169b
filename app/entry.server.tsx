import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { registerPortalDatasets } from "~/datasets.server";
import { Coalesce } from "~/shared/coalesce.server";
import { appErrorReporter } from "~/shared/error-log.server";
import { renderContext } from "~/shared/render-manifest.server";
import { NonceProvider } from "~/shared/ui/nonce";

// The import pipeline's datasets (upload templates, round trips), for the routes that read or offer them.
registerPortalDatasets();

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
  // Bots get the whole document at once; browsers get it streamed as soon as the shell is ready.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  const nonce = loadContext.cspNonce ?? "";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={renderContext(remixContext)} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new Coalesce();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors inside the shell reject above; later ones are logged here.
          if (shellRendered) logServerError(error, request);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
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
