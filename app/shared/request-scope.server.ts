import { AsyncLocalStorage } from "node:async_hooks";
import { sharedAcrossBundles } from "./shared-across-bundles.server";

/**
 * What one page request computes once and its loaders share. A document request runs the root loader, the
 * layout's guard and the route's guard, each of which needs the signed-in user: without a scope that is three
 * reads of the session and of the permission record on the hottest path.
 *
 * The host opens a scope for each GET/HEAD request (server/index.ts); only there are the loaders pure reads. An
 * action may change the session (sign-in, logout, a tier change) before the loaders of the same request run, so
 * a POST gets no scope and every read is fresh. Outside a scope (tests calling a loader directly, the worker)
 * `memoInRequest` simply computes.
 *
 * The host and the Remix build are separate bundles, each with its own copy of this module: the storage lives on
 * `globalThis` (sharedAcrossBundles) so both use the same one.
 */
type Scope = Map<string, unknown>;
const storage = sharedAcrossBundles("request-scope", () => new AsyncLocalStorage<Scope>());

/** Runs `work` (one request's handling) with a fresh scope. */
export function runInRequestScope<T>(work: () => T): T {
  return storage.run(new Map(), work);
}

/** `compute()` once per request scope and key; a rejected computation is not kept. */
export function memoInRequest<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const scope = storage.getStore();
  if (!scope) return compute();
  const known = scope.get(key) as Promise<T> | undefined;
  if (known) return known;
  const pending = compute();
  scope.set(key, pending);
  pending.catch(() => scope.delete(key));
  return pending;
}

/**
 * The current request scope's value under `key`, made by `create` the first time it is asked for; undefined outside
 * a scope (then the caller works alone).
 */
export function inRequestScope<T>(key: string, create: () => T): T | undefined {
  const scope = storage.getStore();
  if (!scope) return undefined;
  if (!scope.has(key)) scope.set(key, create());
  return scope.get(key) as T;
}
