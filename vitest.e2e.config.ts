import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Browser tests: the production build (npm run build) on a free port, driven in Debian's Chromium.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["test/e2e/**/*.e2e.ts"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Each file starts a server, a database and a browser: one at a time on small machines.
    fileParallelism: false,
  },
});
