// The viewer's converter thread (viewer-worker.server.ts) run from its TypeScript source, in development and tests:
// tsx's loader registered in this thread, then the module. Production runs the built build/host/viewer-worker.js.
import { tsImport } from "tsx/esm/api";

await tsImport("./viewer-worker.server.ts", import.meta.url);
