import { PassThrough } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/components/nonce";

/** How long a streamed response may wait for deferred data before it is cut off. */
export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Bots get the whole document at once; browsers get it streamed as soon as the shell is ready.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  const nonce = loadContext.cspNonce ?? "";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
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

/** Unexpected loader/action/render errors, as one JSON log line. Aborted requests are not errors. */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  logServerError(error, request);
}

function logServerError(error: unknown, request: Request) {
  const err = error instanceof Error ? error : new Error(String(error));
  process.stderr.write(
    `${JSON.stringify({
      time: new Date().toISOString(),
      level: "error",
      msg: "unhandled error",
      requestId: request.headers.get("x-request-id") ?? undefined,
      method: request.method,
      path: new URL(request.url).pathname,
      error: err.message,
      stack: err.stack,
    })}\n`,
  );
}
