import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { RouteObject } from "react-router-dom";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";

/**
 * The markup a screen renders on the server at `path` ("/jobs/executados?page=2"), inside a data router as Remix
 * renders it: `content` is one element shown on every path, or routes (with their loaders). Links, forms and
 * fetchers work; nothing hydrates. `init` makes the request another one (a form's POST: the route's action runs first, as
 * for a browser without JavaScript).
 */
export async function renderAt(
  path: string,
  content: ReactElement | RouteObject[],
  init?: RequestInit,
): Promise<string> {
  const routes = Array.isArray(content) ? content : [{ path: "*", element: content }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`, init));
  if (context instanceof Response) throw new Error(`${path} answered a redirect`);
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
}
