import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "~/config.server";

/**
 * Sets (or, for `undefined`, removes) environment variables and re-reads the configuration; the returned function
 * puts the previous values back.
 */
export function swapEnv(vars: Record<string, string | undefined>): () => void {
  const saved: Record<string, string | undefined> = {};
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfigForTests();
  };
  for (const k of Object.keys(vars)) saved[k] = process.env[k];
  apply(vars);
  return () => apply(saved);
}

/** `swapEnv` for the tests of one file: the variables are set before its first test and restored after its last. */
export function useEnv(vars: Record<string, string | undefined>): void {
  let restore: (() => void) | undefined;
  beforeAll(() => {
    restore = swapEnv(vars);
  });
  afterAll(() => restore?.());
}
