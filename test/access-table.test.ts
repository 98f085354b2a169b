import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isRouteId, ROUTE_ACCESS, routeRule } from "~/access";
import { routeIdsSource } from "../scripts/route-ids";

/**
 * The access table against the route modules on disk (test/e2e/access-matrix.e2e.ts checks it against the built
 * manifest and probes the running portal). A route module without a rule, or one that guards itself with another
 * route's id, fails here.
 */

const ROUTES_DIR = path.resolve(__dirname, "../app/routes");
const IGNORED = /\.(test|spec|e2e)\.|\.css$|\.md$|^\./;

function routeModules(): Array<{ id: string; file: string; source: string }> {
  return readdirSync(ROUTES_DIR)
    .filter((f) => /\.tsx?$/.test(f) && !IGNORED.test(f))
    .map((f) => ({
      id: `routes/${f.replace(/\.tsx?$/, "")}`,
      file: f,
      source: readFileSync(path.join(ROUTES_DIR, f), "utf8"),
    }));
}

const exportsServerCode = (source: string) =>
  /export\s+(?:async\s+)?(?:function|const)\s+(loader|action)\b/.test(source);

describe("the access table and the route modules", () => {
  const modules = routeModules();

  it("has a rule for every route module", () => {
    const missing = modules.map((m) => m.id).filter((id) => !isRouteId(id));
    expect(missing, "route modules without an entry in ROUTE_ACCESS (app/access.ts)").toEqual([]);
    expect(isRouteId("root")).toBe(true);
  });

  it("every guarded module with a loader or action guards itself with its own route id, and no other", () => {
    const problems: string[] = [];
    for (const { id, file, source } of modules) {
      if (!isRouteId(id)) continue;
      const named = [...source.matchAll(/["'`](routes\/[^"'`]+)["'`]/g)].map((m) => m[1]);
      const foreign = named.filter((n) => n !== id && isRouteId(n));
      if (foreign.length > 0) problems.push(`${file} names other routes' ids: ${foreign.join(", ")}`);
      if (routeRule(id).kind === "public") {
        if (/requireRouteAccess\(/.test(source))
          problems.push(`${file} is public in the table but calls requireRouteAccess`);
        continue;
      }
      if (!exportsServerCode(source)) continue;
      const guard = new RegExp(
        routeRule(id).kind === "token"
          ? `(handleApiRequest|handleScimRequest)\\([^)]*"${id.replace(/[$.]/g, "\\$&")}"`
          : `(requireRouteAccess|guardedLayoutLoader|guardedNotFound)\\(\\s*"${id.replace(/[$.]/g, "\\$&")}"`,
      );
      if (!guard.test(source))
        problems.push(`${file} (${routeRule(id).kind}) has a loader or action but no guard with "${id}"`);
      if (/\brequireUser\(|\bgetOptionalUser\(/.test(source))
        problems.push(`${file} reads the session without its route's rule`);
      // Every action and loader of a guarded module must reach the guard: count them against the guard calls.
      const handlers = (source.match(/export\s+(?:async\s+)?function\s+(?:loader|action)\b/g) ?? []).length;
      const calls = (source.match(/requireRouteAccess\(|handleApiRequest\(|handleScimRequest\(/g) ?? []).length;
      if (handlers > calls) problems.push(`${file} has ${handlers} loader/action functions but ${calls} guard calls`);
    }
    expect(problems).toEqual([]);
  });

  it("names only route ids in the table", () => {
    const onDisk = new Set(["root", ...modules.map((m) => m.id)]);
    expect(Object.keys(ROUTE_ACCESS).filter((id) => !onDisk.has(id))).toEqual([]);
  });

  it("types the route ids from the route modules (app/route-ids.ts is current: npm run routes:ids)", () => {
    expect(readFileSync(path.resolve(__dirname, "../app/route-ids.ts"), "utf8")).toBe(routeIdsSource());
  });
});

describe("the route modules", () => {
  it("each says on its first line which screen it is", () => {
    const unnamed = routeModules()
      .filter((m) => !/^\/\/ Screen: \S.*\n/.test(m.source))
      .map((m) => m.file);
    expect(unnamed).toEqual([]);
  });
});
