import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { FeatureFlag } from "~/config.server";
import { ALL_ON, CORE_SPELLINGS, runMatrix, summarise } from "./access-matrix/matrix";
import { type InProcessPortal, startInProcessPortal } from "./in-process-portal";

/**
 * The access matrix with each of the spec's area flags off (planning, report, explorer, financial statement): the
 * build is loaded again under that setting, and every /ij route × account × the core and refused spellings answers
 * as the access table says with the flag off. Every flag on: test/access-matrix.test.ts.
 */

let portal: InProcessPortal;
beforeAll(async () => {
  if (!existsSync("build/server/index.js"))
    throw new Error("build/server/index.js is missing: run `npm run build` first (`npm run test:unit` does).");
  portal = await startInProcessPortal();
}, 180_000);
afterAll(async () => {
  await portal?.stop();
});

const target = () => ({
  manifest: portal.manifest,
  db: portal.db,
  sessionSecret: portal.sessionSecret,
  origin: portal.origin,
  send: portal.send,
  concurrency: 8,
});

const FLAGS_OFF: Array<{ flag: FeatureFlag; env: string }> = [
  { flag: "planning", env: "FEATURE_PLANNING" },
  { flag: "report", env: "FEATURE_REPORT" },
  { flag: "explorer", env: "FEATURE_EXPLORER" },
  { flag: "financialStatement", env: "FEATURE_FINANCIAL_STATEMENT" },
];

describe.each(FLAGS_OFF)("flag $flag off", ({ flag, env }) => {
  test("the routes behind it refuse every type; the others answer as with the flag on", async () => {
    await portal.configure({ [env]: "0" });
    const features = { ...ALL_ON, [flag]: false };
    // The spellings themselves were probed with every flag on; here the question is which routes the flag closes.
    const result = await runMatrix(target(), {
      features,
      routeFilter: (id) => id.startsWith("routes/ij"),
      methods: ["GET"],
      refusalSpellings: [...CORE_SPELLINGS, "mixed", "percentEncoded"],
    });
    process.stdout.write(`access matrix (${flag} off): ${result.cases} probes, ${result.failures.length} failures\n`);
    expect(summarise(result.failures)).toEqual([]);
    expect(portal.errorLines()).toEqual([]);
  }, 300_000);
});
