import { createRequire } from "node:module";
import { matchRoutes } from "@remix-run/router";
import { describe, expect, it, vi } from "vitest";
import { installRouteMatchingMemory, REMEMBERED_PATHS, type RouteLike, rememberingMatchRoutes } from "./route-matching";

/** A table shaped like the portal's: nested layouts, index routes, params, an optional segment, a splat, a case-sensitive route. */
function table(): RouteLike[] {
  return [
    {
      id: "root",
      path: "",
      children: [
        { id: "routes/_index", index: true },
        { id: "routes/home", path: "home" },
        {
          id: "routes/ij",
          path: "ij",
          children: [
            { id: "routes/ij._index", index: true },
            { id: "routes/ij.painel.$id", path: "painel/:id" },
            {
              id: "routes/ij.review",
              path: "report_preview_edit_schneider/:rf/:cost_center_concat",
              children: [{ id: "routes/ij.review.history", path: "history" }],
            },
          ],
        },
        { id: "routes/user", path: "user", children: [{ id: "routes/user.config", path: "config" }] },
        { id: "routes/_layout", children: [{ id: "routes/_layout.jobs", path: "jobs/executados/:page?" }] },
        { id: "routes/exact", path: "Exact/Case", caseSensitive: true },
        { id: "routes/$", path: "*" },
      ],
    },
  ];
}

const PATHS = [
  "/",
  "/home",
  "/HOME",
  "/home/",
  "/ij",
  "/ij/painel/1",
  "/ij/painel/1?x=1#top",
  "/ij/report_preview_edit_schneider/RF1%202025/CC1001%20-%20Marketing",
  "/ij/report_preview_edit_schneider/RF1 2025/CC1001 - Marketing/history",
  "/ij/report_preview_edit_schneider/RF1%202025",
  "/IJ/Report_Preview_Edit_Schneider/a%2Fb/c",
  "/user/config",
  "/USER/config",
  "/%55SER/config",
  "/user//config",
  "/jobs/executados",
  "/jobs/executados/40",
  "/Exact/Case",
  "/exact/case",
  "/nowhere/at/all",
  "/ij/painel",
];

const original = matchRoutes as unknown as Parameters<typeof rememberingMatchRoutes>[0];

describe("remembered route matching", () => {
  it("answers exactly as React Router does, with the route objects of the table it is given", () => {
    const remembering = rememberingMatchRoutes(original);
    for (let round = 0; round < 3; round++) {
      // A fresh table each round, as Remix builds per request: the answers come from memory after the first.
      const routes = table();
      for (const path of PATHS) {
        for (const basename of ["/", "/portal"]) {
          const expected = original(routes, basename === "/" ? path : `/portal${path}`, basename);
          const got = remembering(routes, basename === "/" ? path : `/portal${path}`, basename);
          expect(got, `${basename} ${path}`).toEqual(expected);
          got?.forEach((m, i) => {
            expect(m.route).toBe(expected![i].route);
          });
        }
        // React Router's own rendering passes a location object.
        const asObject = { pathname: path.replace(/[?#].*$/, ""), search: "", hash: "" };
        const expected = original(routes, asObject);
        const got = remembering(routes, asObject);
        expect(got, `{ pathname: ${asObject.pathname} }`).toEqual(expected);
        got?.forEach((m, i) => {
          expect(m.route).toBe(expected![i].route);
        });
      }
    }
  });

  it("runs React Router's matching once per table shape and path", () => {
    const spy = vi.fn(original);
    const remembering = rememberingMatchRoutes(spy);
    for (let i = 0; i < 5; i++) for (const path of PATHS) remembering(table(), path);
    expect(spy).toHaveBeenCalledTimes(PATHS.length);
    // A location object is its own entry: "/home" as a string and as { pathname } are two answers, each kept.
    for (let i = 0; i < 3; i++) remembering(table(), { pathname: "/home" });
    expect(spy).toHaveBeenCalledTimes(PATHS.length + 1);
    // A table of another shape is matched again.
    const other = table();
    other[0].children!.push({ id: "routes/extra", path: "extra" });
    remembering(other, "/home");
    expect(spy).toHaveBeenCalledTimes(PATHS.length + 2);
  });

  it("hands out fresh match objects: a caller changing its params changes nobody else's", () => {
    const remembering = rememberingMatchRoutes(original);
    const routes = table();
    remembering(routes, "/ij/painel/7");
    const first = remembering(routes, "/ij/painel/7")!;
    first[first.length - 1].params.id = "changed";
    first[first.length - 1].pathname = "/elsewhere";
    const second = remembering(routes, "/ij/painel/7")!;
    expect(second[second.length - 1]).toMatchObject({ params: { id: "7" }, pathname: "/ij/painel/7" });
  });

  it("leaves tables without unique ids, and locations without a pathname, to React Router", () => {
    const spy = vi.fn(original);
    const remembering = rememberingMatchRoutes(spy);
    const duplicated = table();
    duplicated[0].children!.push({ id: "routes/home", path: "again" });
    const missing: RouteLike[] = [{ path: "/", children: [{ path: "home" }] }];
    for (let i = 0; i < 3; i++) {
      expect(remembering(duplicated, "/again")?.at(-1)?.route.path).toBe("again");
      expect(remembering(missing, "/home")?.at(-1)?.route.path).toBe("home");
      expect(remembering(table(), { search: "?a=1" })?.at(-1)?.route.id).toBe("routes/_index");
    }
    expect(spy).toHaveBeenCalledTimes(9);
  });

  it("starts over after REMEMBERED_PATHS paths, and still answers right", () => {
    const spy = vi.fn(original);
    const remembering = rememberingMatchRoutes(spy);
    const routes = table();
    for (let i = 0; i <= REMEMBERED_PATHS; i++) remembering(routes, `/ij/painel/${i}`);
    expect(spy).toHaveBeenCalledTimes(REMEMBERED_PATHS + 1);
    expect(remembering(routes, "/ij/painel/0")?.at(-1)?.params).toEqual({ id: "0" });
    expect(spy).toHaveBeenCalledTimes(REMEMBERED_PATHS + 2);
    expect(remembering(routes, `/ij/painel/${REMEMBERED_PATHS}`)?.at(-1)?.params).toEqual({
      id: String(REMEMBERED_PATHS),
    });
    expect(spy).toHaveBeenCalledTimes(REMEMBERED_PATHS + 2);
  });

  it("once installed, is what Remix's server matching calls (the guard still gets the route the URL matched)", async () => {
    const router = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: unknown };
    const before = router.matchRoutes;
    installRouteMatchingMemory();
    installRouteMatchingMemory();
    expect(router.matchRoutes).not.toBe(before);
    const { matchServerRoutes } = createRequire(import.meta.url)("@remix-run/server-runtime/dist/routeMatching.js") as {
      matchServerRoutes: (routes: RouteLike[], pathname: string) => Array<{ route: RouteLike; params: Params }> | null;
    };
    const routes = table();
    for (let i = 0; i < 2; i++) {
      expect(matchServerRoutes(routes, "/USER/config")?.map((m) => m.route.id)).toEqual([
        "root",
        "routes/user",
        "routes/user.config",
      ]);
      expect(matchServerRoutes(routes, "/exact/case")?.map((m) => m.route.id)).toEqual(["root", "routes/$"]);
    }
  });
});

type Params = Record<string, string | undefined>;
