// bounded-thread-worker.fixture.ts through tsx's loader (a worker thread does not inherit it), for the tests.
import { tsImport } from "tsx/esm/api";

await tsImport("./bounded-thread-worker.fixture.ts", import.meta.url);
