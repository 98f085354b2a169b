import type { ManualChunkMeta, ModuleInfo } from "rollup";
import { describe, expect, test } from "vitest";
import { shellChunk } from "./vite-shell-chunk";

/** A module graph as Rollup's `getModuleInfo` gives it: static and dynamic imports, entries. */
function meta(graph: Record<string, { imports?: string[]; dynamic?: string[]; entry?: boolean }>): ManualChunkMeta {
  return {
    getModuleIds: () => Object.keys(graph)[Symbol.iterator](),
    getModuleInfo: (id: string) =>
      graph[id]
        ? ({
            id,
            importedIds: graph[id].imports ?? [],
            dynamicallyImportedIds: graph[id].dynamic ?? [],
            isEntry: graph[id].entry ?? false,
          } as unknown as ModuleInfo)
        : null,
  };
}

describe("the browser build's shell chunk", () => {
  const graph = meta({
    "/app/root.tsx": { entry: true, imports: ["/app/nav.tsx", "/node_modules/react/index.js"] },
    "/app/nav.tsx": { imports: ["/app/dates.ts"], dynamic: ["/app/help-dialog.tsx"] },
    "/app/dates.ts": {},
    "/app/help-dialog.tsx": { imports: ["/app/dialog-texts.ts"] },
    "/app/dialog-texts.ts": {},
    "/app/routes/home.tsx": { entry: true, imports: ["/app/dates.ts", "/app/table.tsx"] },
    "/app/table.tsx": {},
    "/node_modules/react/index.js": {},
  });
  const chunkOf = shellChunk("/app/root.tsx");
  const shell = (id: string) => chunkOf(id, graph);

  test("holds the portal's modules the root imports statically, directly or through each other", () => {
    expect(shell("/app/nav.tsx")).toBe("shell");
    expect(shell("/app/dates.ts")).toBe("shell");
  });

  test("leaves out what only some pages load: lazy modules, other routes' own imports, the routes themselves", () => {
    expect(shell("/app/help-dialog.tsx")).toBeUndefined();
    expect(shell("/app/dialog-texts.ts")).toBeUndefined();
    expect(shell("/app/table.tsx")).toBeUndefined();
    expect(shell("/app/routes/home.tsx")).toBeUndefined();
    expect(shell("/app/root.tsx")).toBeUndefined();
  });

  test("leaves libraries to Rollup's own splitting", () => {
    expect(shell("/node_modules/react/index.js")).toBeUndefined();
  });
});
