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
