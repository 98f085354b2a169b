import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";
import { splitByProcess } from "./test/isolation";

// Unit and integration tests. Browser tests (test/e2e) have their own config.

// Importing the portal's modules again for each file was a large part of the suite's time: only the files that change
// shared state or hold a process's resources run isolated (test/isolation.ts); the others share their worker's modules.
const { isolated, shared } = splitByProcess(["app", "server", "packages", "test", "scripts"], /\.test\.tsx?$/, [
  "test/e2e",
]);

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: a single one on a 2-core machine. Many files wait on
    // servers in other processes (the embedded database, s3rver, SMTP), so one worker per core keeps both cores busy.
    maxWorkers: "100%",
    poolOptions: { threads: { isolate: false } },
    projects: [
      { extends: true, test: { name: "isolated", include: isolated } },
      // Isolation is a setting of the pool, not of the project: these files take the thread pool, set to share.
      { extends: true, test: { name: "shared", include: shared, pool: "threads" } },
    ],
  },
});
