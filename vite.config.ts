import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import remixConfig from "./remix.config.js";

export default defineConfig({
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
  },
});
