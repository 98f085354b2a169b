import { test } from "./fixtures";

// Browser-test files share their worker's modules (isolate: false), and Vitest keeps what `test.scoped` sets at a
// file's top level on a suite that outlives the file. Every file therefore starts from the defaults here: the demo
// seed, no extra settings, no added data. A file that needs others scopes them again after this runs.
test.scoped({ appEnv: {}, appSeed: "demo", appSetup: {} });
