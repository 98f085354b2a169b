import { sharedAcrossBundles } from "./shared-across-bundles.server";

/**
 * Work a request starts and does not wait for (a dashboard's figures recomputed behind the view). The host's
 * shutdown waits for it, within its grace period, before it closes the database: otherwise the work would end
 * with "client was closed" and its result would be lost.
 *
 * The host and the Remix build are separate bundles, each with its own copy of this module: the set lives on
 * `globalThis` (sharedAcrossBundles) so both see the same one.
 */
const running = sharedAcrossBundles("background-work", () => new Set<Promise<unknown>>());

/** Counts `work` as running until it settles, and returns it unchanged. */
export function trackBackgroundWork<T>(work: Promise<T>): Promise<T> {
  running.add(work);
  const done = () => running.delete(work);
  work.then(done, done);
  return work;
}

/** Resolves once no tracked work is running, including work started while waiting. */
export async function backgroundWorkSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
