// The explorer's text extraction thread (document-text-worker.server.ts) run from its TypeScript source, in
// development and tests: tsx's loader registered in this thread, then the module. Production runs the built
// build/host/document-text-worker.js.
import { tsImport } from "tsx/esm/api";

await tsImport("./document-text-worker.server.ts", import.meta.url);
