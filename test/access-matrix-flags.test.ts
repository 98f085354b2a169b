import { beforeAll, describe, expect, test } from "vitest";
import { isRouteId, routeRule } from "~/access";
import type { FeatureFlag } from "~/config.server";
import { ALL_ON, CORE_SPELLINGS, runMatrix, summarise } from "./access-matrix/matrix";
import { type InProcessPortal, useInProcessPortal } from "./in-process-portal";

/**
 * The access matrix with each of the spec's area flags off (planning, report, explorer, financial statement): the
 * build is loaded again under that setting: every /ij route behind the flag × account × the core and refused spellings,
 * and every other /ij route × account as spelled, answers as the access table says with the flag off. Every flag on,
 * every spelling of every route: test/access-matrix.test.ts.
 */

const running = useInProcessPortal();
let portal: InProcessPortal;
beforeAll(() => {
  portal = running.current();
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

/** Whether the route, or a route it is nested in, reads under `flag` (the flag closes it). */
function behind(flag: FeatureFlag, id: string): boolean {
  for (let at: string | undefined = id; at; at = portal.manifest.routes[at]?.parentId) {
    const rule = isRouteId(at) ? routeRule(at) : undefined;
    if (rule?.kind === "restricted" && rule.read.flag === flag) return true;
  }
  return false;
}

describe.each(FLAGS_OFF)("flag $flag off", ({ flag, env }) => {
  test("the routes behind it refuse every type; the others answer as with the flag on", async () => {
    await portal.configure({ [env]: "0" });
    const features = { ...ALL_ON, [flag]: false };
    // The spellings themselves were probed with every flag on; here the questions are which routes the flag closes
    // (each in the spellings that reach a route) and that it closes no other (each in its own spelling).
    const closed = await runMatrix(target(), {
      features,
      routeFilter: (id) => id.startsWith("routes/ij") && behind(flag, id),
      methods: ["GET"],
      refusalSpellings: [...CORE_SPELLINGS, "mixed", "percentEncoded"],
    });
    const others = await runMatrix(target(), {
      features,
      routeFilter: (id) => id.startsWith("routes/ij") && !behind(flag, id),
      methods: ["GET"],
      refusalSpellings: ["canonical"],
      spellings: ["canonical"],
    });
    process.stdout.write(
      `access matrix (${flag} off): ${closed.cases} probes behind the flag, ${others.cases} elsewhere, ${closed.failures.length + others.failures.length} failures\n`,
    );
    expect(closed.refused).toBeGreaterThan(0);
    expect(summarise([...closed.failures, ...others.failures])).toEqual([]);
    expect(portal.errorLines()).toEqual([]);
  }, 300_000);
});
