/**
 * The floor of a Remix document on this machine: the server that bench/load/floor.ts loads. It has what every request
 * of the portal goes through before /healthz answers (the request log at the bench's level, the drain) and the
 * portal's /healthz; documents then get the portal's compression and Remix builds of routes with no loader:
 *
 * - `/streamed`: the portal's future flags (single fetch) and its own entry, app/entry.server.tsx (React's stream,
 *   coalesced chunks);
 * - `/whole`: single fetch off and the document rendered to one string, the cheapest entry Remix allows;
 * - `/home`: `/streamed` behind the portal's own route table (portalTableBuild), when the portal is built.
 *
 * Nothing else: no session, no database, no layout, no security headers. Whatever the portal's pages cost above this is
 * theirs; this is what a Remix document costs before any of it. Run by floor.ts as `node --import tsx` with PORT set.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { EntryContext, ServerBuild } from "@remix-run/node";
import { Links, Meta, Outlet, RemixServer, Scripts } from "@remix-run/react";
import express from "express";
import { renderToString } from "react-dom/server";
import handleRequest from "../../app/entry.server";
import { createLogger } from "../../app/shared/logger.server";
import remixConfig from "../../remix.config.js";
import { dynamicCompression } from "../../server/compression-settings";
import { createDrain } from "../../server/drain";
import { healthz } from "../../server/healthz";
import { requestLog } from "../../server/request-log";
import { installRouteMatchingMemory } from "../../server/route-matching";

/** The portal's own entry (app/entry.server.tsx), with the context the host gives it (an empty nonce here). */
function streamed(request: Request, status: number, headers: Headers, context: EntryContext): Promise<Response> {
  return handleRequest(request, status, headers, context, { cspNonce: "" });
}

function whole(request: Request, status: number, headers: Headers, context: EntryContext): Response {
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(`<!DOCTYPE html>${renderToString(<RemixServer context={context} url={request.url} />)}`, {
    headers,
    status,
  });
}

function Root() {
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <Scripts />
      </body>
    </html>
  );
}

function Page() {
  return (
    <main>
      <h1>Início</h1>
    </main>
  );
}

const noFlags = {
  hasAction: false,
  hasLoader: false,
  hasClientAction: false,
  hasClientLoader: false,
  hasErrorBoundary: false,
};

/** A server build of a root and one page at `/<path>`, as `remix vite:build` would write it. */
function buildOf(
  path: string,
  entry: ServerBuild["entry"]["module"]["default"],
  future: Record<string, boolean>,
): ServerBuild {
  return {
    mode: "production",
    basename: undefined,
    isSpaMode: false,
    publicPath: "/assets/",
    assetsBuildDirectory: "build/client",
    future,
    entry: { module: { default: entry } },
    routes: {
      root: {
        id: "root",
        parentId: undefined,
        path: "",
        index: undefined,
        caseSensitive: undefined,
        module: { default: Root },
      },
      page: {
        id: "page",
        parentId: "root",
        path,
        index: undefined,
        caseSensitive: undefined,
        module: { default: Page },
      },
    },
    assets: {
      version: "floor",
      url: "/assets/manifest-floor.js",
      entry: { module: "/assets/entry.client.js", imports: [] },
      routes: {
        root: {
          id: "root",
          parentId: undefined,
          path: "",
          module: "/assets/root.js",
          imports: [],
          css: [],
          ...noFlags,
        },
        page: { id: "page", parentId: "root", path, module: "/assets/page.js", imports: [], css: [], ...noFlags },
      },
    },
  } as unknown as ServerBuild;
}

type RouteShape = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

function Branch() {
  return <Outlet />;
}

/**
 * The same empty document (the portal's flags and entry) served at /home behind the portal's own route table: every
 * route of its build (build/server/index.js), with its id, path and nesting, but no loader and nothing drawn except
 * the page. What Remix and React Router spend on a table of that size per document (matching, the partial manifest,
 * the route objects of the render) is in this floor; what /home costs above it is the portal's. Null without a build.
 */
async function portalTableBuild(): Promise<ServerBuild | null> {
  const file = path.resolve("build/server/index.js");
  if (!fs.existsSync(file)) return null;
  const portal = (await import(pathToFileURL(file).href)) as ServerBuild;
  const shapes: RouteShape[] = Object.values(portal.routes).map((route) => ({
    id: route.id,
    parentId: route.parentId,
    path: route.path,
    index: route.index,
    caseSensitive: route.caseSensitive,
  }));
  const build = buildOf("home", streamed, remixConfig.future);
  build.routes = Object.fromEntries(
    shapes.map((r) => [
      r.id,
      { ...r, module: { default: r.id === "root" ? Root : r.id === "routes/home" ? Page : Branch } },
    ]),
  ) as unknown as ServerBuild["routes"];
  build.assets.routes = Object.fromEntries(
    shapes.map((r) => [r.id, { ...r, module: `/assets/${r.id}.js`, imports: [], css: [], ...noFlags }]),
  ) as unknown as ServerBuild["assets"]["routes"];
  return build;
}

// As the portal's host does (server/index.ts): Remix's matching of one table remembers its answers.
installRouteMatchingMemory();
const app = express();
app.disable("x-powered-by");
app.use(requestLog(createLogger("warn")));
app.use(createDrain().middleware);
app.get("/healthz", healthz);
app.use(dynamicCompression());
app.all(
  "/streamed",
  createRequestHandler({ build: buildOf("streamed", streamed, remixConfig.future), mode: "production" }),
);
app.all(
  "/whole",
  createRequestHandler({
    build: buildOf("whole", whole, { ...remixConfig.future, v3_singleFetch: false }),
    mode: "production",
  }),
);
const table = await portalTableBuild();
if (table) app.all("/home", createRequestHandler({ build: table, mode: "production" }));
app.listen(Number(process.env.PORT), "127.0.0.1");
