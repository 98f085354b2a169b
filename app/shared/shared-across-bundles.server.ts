/**
 * One value per process, whichever bundle asks: the host (build/host) and the Remix build each carry their own
 * copy of a module, so module-level state would be two values. The value lives on `globalThis` under a
 * `Symbol.for(journey-portal.<name>)` key, created by the first caller.
 */
export function sharedAcrossBundles<T>(name: string, create: () => T): T {
  const key = Symbol.for(`journey-portal.${name}`);
  const holder = globalThis as typeof globalThis & Record<symbol, T | undefined>;
  return (holder[key] ??= create());
}
