import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The layering of docs/architecture.md, read from the real import graph: every import, export-from and dynamic
 * import of every module in app/, packages/ and server/, resolved by TypeScript with the project's tsconfig (so
 * `~/…` and package names resolve as the compiler resolves them). Type-only imports count too: a cycle of types is
 * still a cycle a reader has to untangle.
 */
const root = path.resolve(__dirname, "..");
const roots = ["app", "packages", "server"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return out;
  for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "node_modules" || entry.name === "build") continue;
      out.push(...sourceFiles(rel));
    } else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
const host = ts.createCompilerHost(options);

/** The graph: module → the project modules it imports (repo-relative, posix). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap(sourceFiles)) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const info = ts.preProcessFile(text, true, true);
    const targets: string[] = [];
    for (const ref of info.importedFiles) {
      const resolved = ts.resolveModuleName(ref.fileName, path.join(root, file), options, host).resolvedModule;
      if (!resolved || (resolved.isExternalLibraryImport && !resolved.resolvedFileName.includes("/packages/")))
        continue;
      const target = path.relative(root, fs.realpathSync(resolved.resolvedFileName)).split(path.sep).join("/");
      if (target.startsWith("node_modules/") || target.endsWith(".d.ts")) continue;
      targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components with more than one module (or a module importing itself): Tarjan's algorithm. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}

const graph = importGraph();
const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));

describe("the import graph", () => {
  it("reads the whole tree (a broken reader would pass every rule below)", () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges).toContainEqual({ from: "app/root.tsx", to: "app/features/access/auth.server.ts" });
  });

  it("has no import cycle in app/, packages/ or server/", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("finds a cycle when there is one (the detector itself)", () => {
    const looped = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cycles(looped)).toEqual([["a", "b", "c"]]);
  });

  it("never imports a feature from the data layer, the providers or the shared modules", () => {
    const below = /^app\/(models|services|shared)\//;
    expect(edges.filter((e) => below.test(e.from) && e.to.startsWith("app/features/"))).toEqual([]);
  });

  it("never imports the host (server/) from app/", () => {
    expect(edges.filter((e) => e.from.startsWith("app/") && e.to.startsWith("server/"))).toEqual([]);
  });

  it("reaches the embedded database from app/ only as a MongoDB server (no import of the engine)", () => {
    expect(edges.filter((e) => e.from.startsWith("app/") && e.to.startsWith("packages/embedded-mongo/"))).toEqual([]);
  });

  it("keeps the data layer free of UI: no model imports a route, a component or React", () => {
    const uiImports = [...graph.keys()]
      .filter((f) => f.startsWith("app/models/"))
      .filter((f) => /from "react"|from "@remix-run\/react"/.test(fs.readFileSync(path.join(root, f), "utf8")));
    expect(uiImports).toEqual([]);
    expect(edges.filter((e) => e.from.startsWith("app/models/") && e.to.startsWith("app/routes/"))).toEqual([]);
  });
});
