// The worker thread (worker.ts) run from its TypeScript source, in development, tests and benchmarks: tsx's loader
// registered in this thread, then the module. Production runs the built build/host/xlsx-reader-worker.js instead.
import { tsImport } from "tsx/esm/api";

await tsImport("./worker.ts", import.meta.url);
