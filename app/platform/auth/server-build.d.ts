// The Remix Vite plugin's entry of the server build (the module the host serves): its route manifest is what the
// router matches against, so the sign-in return (return-to.server.ts) decides with the router's own routes.
declare module "virtual:remix/server-build" {
  import type { ServerBuild } from "@remix-run/node";
  export const routes: ServerBuild["routes"];
}
