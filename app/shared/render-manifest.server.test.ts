import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { renderContext } from "./render-manifest.server";

type Manifest = EntryContext["manifest"];

const route = (id: string, parentId: string | undefined, path?: string, index?: boolean) => ({
  id,
  parentId,
  path,
  index,
  module: `/assets/${id}.js`,
  hasAction: false,
  hasLoader: true,
  hasClientAction: false,
  hasClientLoader: false,
  hasErrorBoundary: false,
});

// A root with its index, a layout with an index, a page, a dynamic page and a pathless layout, and a branch elsewhere.
const manifest = {
  version: "v",
  url: "/assets/manifest-v.js",
  entry: { module: "/assets/entry.js", imports: [] },
  routes: Object.fromEntries(
    [
      route("root", undefined, ""),
      route("routes/_index", "root", undefined, true),
      route("routes/ij", "root", "ij"),
      route("routes/ij._index", "routes/ij", undefined, true),
      route("routes/ij.plan", "routes/ij", "plan"),
      route("routes/ij.review", "routes/ij", "review/:rf"),
      route("routes/ij.review._index", "routes/ij.review", undefined, true),
      route("routes/ij.review.$cc", "routes/ij.review", ":cc"),
      route("routes/ij.review.$cc.history", "routes/ij.review.$cc", "history"),
      route("routes/user", "root", "user"),
      route("routes/user.config", "routes/user", "config"),
    ].map((r) => [r.id, r]),
  ),
} as unknown as Manifest;

const contextAt = (pathname: string, matched: string[]) =>
  ({
    manifest,
    staticHandlerContext: {
      basename: "/",
      location: { pathname },
      matches: matched.map((id) => ({ route: { id } })),
    },
    renderMeta: {},
  }) as unknown as EntryContext;

describe("renderContext", () => {
  it("keeps the matched routes and those of each parent path, as the manifest the browser gets names them", () => {
    const context = contextAt("/ij/review/RF1/CC1", ["root", "routes/ij", "routes/ij.review", "routes/ij.review.$cc"]);
    const cut = renderContext(context);
    expect(Object.keys(cut.manifest.routes).sort()).toEqual([
      "root",
      "routes/_index",
      "routes/ij",
      "routes/ij._index",
      "routes/ij.review",
      "routes/ij.review.$cc",
      "routes/ij.review._index",
    ]);
    // Each kept route is the build's own entry; everything else of the context is the same object.
    expect(cut.manifest.routes["routes/ij.review.$cc"]).toBe(manifest.routes["routes/ij.review.$cc"]);
    expect(cut.manifest.entry).toBe(manifest.entry);
    expect(cut.staticHandlerContext).toBe(context.staticHandlerContext);
    expect(cut.renderMeta).toBe(context.renderMeta);
    // The same page again: the same cut manifest.
    expect(
      renderContext(contextAt("/ij/review/RF1/CC1", ["root", "routes/ij", "routes/ij.review", "routes/ij.review.$cc"]))
        .manifest,
    ).toBe(cut.manifest);
  });

  it("keeps the root and its index on /, and the root alone for a path nothing matches", () => {
    expect(Object.keys(renderContext(contextAt("/", ["root", "routes/_index"])).manifest.routes).sort()).toEqual([
      "root",
      "routes/_index",
    ]);
    expect(Object.keys(renderContext(contextAt("/nada/aqui", ["root"])).manifest.routes).sort()).toEqual([
      "root",
      "routes/_index",
    ]);
  });

  it("renders with the whole manifest when a matched route is not in it", () => {
    const context = contextAt("/ij/plan", ["root", "routes/ij", "routes/ij.gone"]);
    expect(renderContext(context)).toBe(context);
  });
});
