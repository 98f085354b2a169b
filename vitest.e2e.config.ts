import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/e2e/sequencer";

// Browser tests: the production build (npm run build) on a free port, driven in Debian's Chromium.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["test/e2e/**/*.e2e.ts"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Each file starts its own server, database and browser, so files can run side by side: two at once keep both
    // cores of a 2-core machine busy (docs/decisions.md, "Browser tests"); a third gained nothing.
    fileParallelism: true,
    // Longest files first, also on a checkout without Vitest's durations from a last run (test/e2e/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    maxWorkers: 2,
    minWorkers: 1,
  },
});
