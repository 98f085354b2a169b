import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Browser tests: the production build (npm run build) on a free port, driven in Debian's Chromium.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["test/e2e/**/*.e2e.ts"],
    setupFiles: ["test/setup.ts", "test/e2e/file-defaults.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Two workers keep both cores of a 2-core machine busy. Each is one long-lived process: its files share its
    // Chromium and its seeded servers (test/e2e/fixtures.ts), each file starting from the seeded state.
    fileParallelism: true,
    maxWorkers: 2,
    minWorkers: 1,
    isolate: false,
  },
});
