// The snapshot checker's thread (checksum-worker.ts) run from its TypeScript source, in development (`npm run db`)
// and tests: tsx's loader registered in this thread, then the module. The portal's build runs the built
// build/host/embedded-mongo-checksums.js instead.
import { tsImport } from "tsx/esm/api";

await tsImport("./checksum-worker.ts", import.meta.url);
