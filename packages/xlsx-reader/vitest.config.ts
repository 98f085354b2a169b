import { defineConfig } from "vitest/config";

// The reader's own tests, runnable from this folder (`npx vitest run`) as well as from the portal's root, where the
// root config runs them with the rest of the suite.
export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
