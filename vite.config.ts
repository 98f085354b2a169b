import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import remixConfig from "./remix.config.js";
import { shellChunk } from "./server/vite-shell-chunk";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    remix({
      ...remixConfig,
      // build/client (browser assets) and build/server (the Remix server build); the host goes to build/host.
      buildDirectory: "build",
    }),
    tsconfigPaths(),
  ],
  build: {
    // Assets are content-hashed and served with immutable caching by server/index.ts.
    assetsInlineLimit: 0,
    // Every page loads the root's modules: one file for them instead of one per shared module (docs/performance.md).
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: shellChunk(path.resolve("app/root.tsx")) } },
  },
}));
