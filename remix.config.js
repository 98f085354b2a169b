/**
 * Remix options. The Vite plugin does not read this file by itself: vite.config.ts imports it
 * and hands it to the plugin, so this is the single source of the future flags and ignored files.
 *
 * @type {{ future: Record<string, boolean>; ignoredRouteFiles: string[] }}
 */
const remixConfig = {
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
  // Tests, styles and dotfiles may sit next to route modules without becoming routes.
  ignoredRouteFiles: ["**/.*", "**/*.test.*", "**/*.spec.*", "**/*.e2e.*", "**/*.css", "**/*.md"],
};

export default remixConfig;
