import type { GetManualChunk, ManualChunkMeta } from "rollup";

/**
 * Rollup's `manualChunks` for the browser build: the portal's own modules that the root route imports statically
 * (directly or through each other) go into one "shell" chunk. Every page loads all of them anyway, so joining them
 * adds no code to any page and saves a request and a compressed file's overhead per module; modules that only some
 * pages import keep Rollup's own splitting, and libraries (React, Remix) keep their chunk.
 */
export function shellChunk(rootModule: string): GetManualChunk {
  let shell: Set<string> | undefined;
  return (id: string, meta: ManualChunkMeta) => {
    shell ??= staticGraph(rootModule, meta);
    return shell.has(id) ? "shell" : undefined;
  };
}

function staticGraph(rootModule: string, { getModuleInfo }: ManualChunkMeta): Set<string> {
  const seen = new Set<string>();
  const stack = [...(getModuleInfo(rootModule)?.importedIds ?? [])];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id) || id.includes("/node_modules/")) continue;
    const info = getModuleInfo(id);
    if (!info || info.isEntry) continue;
    seen.add(id);
    stack.push(...info.importedIds);
  }
  return seen;
}
