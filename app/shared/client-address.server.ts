import { AsyncLocalStorage } from "node:async_hooks";
import { sharedAcrossBundles } from "./shared-across-bundles.server";

/**
 * The client address of the request being handled, as the trusted proxy chain gives it (Express `req.ip`, which
 * honours `trust proxy`). The host runs each request inside `runWithClientAddress` (server/index.ts), so code deep in
 * a request — the route guard, the audit trail — knows where the request came from without the Remix load context.
 * Headers are never read here: they can be forged. Outside a request (CLI, worker, tests) the address is null.
 */
const storage = sharedAcrossBundles("client-address", () => new AsyncLocalStorage<string>());

/** Runs `work` (one request's handling) with `address` as the client address. */
export function runWithClientAddress<T>(address: string | null | undefined, work: () => T): T {
  const value = typeof address === "string" && address.length > 0 && address.length <= 64 ? address : "";
  return storage.run(value, work);
}

/** The client address of the current request, or null outside one. */
export function currentClientAddress(): string | null {
  return storage.getStore() || null;
}
