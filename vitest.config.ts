import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Unit and integration tests. Browser tests (test/e2e) have their own config.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "packages/*/**/*.test.ts", "test/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    exclude: ["**/node_modules/**", "build", "test/e2e/**"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: a single one on a 2-core machine. Many files wait on
    // servers in other processes (the embedded database, s3rver, SMTP), so one per core ran the suite in 158 s
    // against 263 s.
    maxWorkers: "100%",
  },
});
