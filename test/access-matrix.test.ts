import { beforeAll, describe, expect, test } from "vitest";
import { isRouteId } from "~/access";
import { ALL_ON, runMatrix, summarise } from "./access-matrix/matrix";
import { type InProcessPortal, useInProcessPortal } from "./in-process-portal";

/**
 * The access matrix (test/access-matrix/matrix.ts), in-process: every route of the production build × every demo
 * account and anonymous × every spelling × GET and POST, through the host's Express app on the build, with no socket
 * (test/in-process-portal.ts). Flags off: test/access-matrix-flags.test.ts. The counts are printed. The browser tier keeps one HTTP probe per route and kind of refusal
 * (test/e2e/access-probes.e2e.ts).
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

describe("route × account × spelling × method (all flags on)", () => {
  test("every route of the build has a rule, and every probe answers as its matched route's rule says", async () => {
    await portal.configure();
    expect(Object.keys(portal.manifest.routes).filter((id) => !isRouteId(id))).toEqual([]);
    const result = await runMatrix(target(), { features: ALL_ON });
    process.stdout.write(
      `access matrix (all flags on): ${result.cases} probes, ${result.refused} expected refusals, ${result.failures.length} failures\n`,
    );
    expect(summarise(result.failures)).toEqual([]);
    expect(result.cases).toBeGreaterThan(5000);
    expect(portal.errorLines()).toEqual([]);
  }, 600_000);
});
