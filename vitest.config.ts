import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";
import { splitByProcess } from "./test/isolation";

// Unit and integration tests. Browser tests (test/e2e) have their own config.

// Importing the portal's modules again for each of 140 files was half the suite's time: 184-193 s with every file
// isolated, 125-143 s with only the files that change shared state or hold a process's resources (test/isolation.ts).
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
    // servers in other processes (the embedded database, s3rver, SMTP), so one per core ran the suite in 158 s
    // against 263 s.
    maxWorkers: "100%",
    poolOptions: { threads: { isolate: false } },
    projects: [
      { extends: true, test: { name: "isolated", include: isolated } },
      // Isolation is a setting of the pool, not of the project: these files take the thread pool, set to share.
      { extends: true, test: { name: "shared", include: shared, pool: "threads" } },
    ],
  },
});
