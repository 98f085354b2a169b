/// <reference types="@remix-run/node" />
/// <reference types="vite/client" />

import "@remix-run/node";

declare module "@remix-run/node" {
  /**
   * What server/index.ts passes to every loader and action. Optional so that tests can call
   * loaders with `context: {}`.
   */
  interface AppLoadContext {
    /** The per-request CSP nonce; every inline script must carry it. */
    cspNonce?: string;
    /** The X-Request-Id of this request, for logs. */
    requestId?: string;
    /** The client's address (Express req.ip behind `trust proxy`), for the per-IP sign-in limit. */
    clientIp?: string;
  }
  // Types loaders' data as single fetch serializes it.
  interface Future {
    v3_singleFetch: true;
  }
}
