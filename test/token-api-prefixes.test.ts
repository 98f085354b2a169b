import { beforeAll, describe, expect, test } from "vitest";
import { API_TOKENS } from "~/models/api-tokens.server";
import { patternOf, signInCookie, snapshot } from "./access-matrix/matrix";
import { type InProcessPortal, useInProcessPortal } from "./in-process-portal";

/**
 * The token API and SCIM (`/api/v1`, `/scim/v2`) take cross-site requests, since they read no cookie. That exemption
 * is decided on the path Remix routes (dot segments resolved as the URL parser resolves them), so no spelling that
 * starts with an exempt prefix reaches a cookie action from another site; and the Origin a browser sent is never
 * rewritten, so each route's own check and Remix's see it. Through the host's app on the production build.
 */

const running = useInProcessPortal();
let portal: InProcessPortal;
beforeAll(() => {
  portal = running.current();
});

const EVIL = { origin: "https://evil.example" };

/** Ways to start a target with an exempt prefix and climb out of it to `path`. */
const escapes = (path: string): string[] => [
  `/scim/v2/../..${path}`,
  `/api/v1/../..${path}`,
  `/SCIM/V2/../..${path}`,
  `/Api/V1/../..${path}`,
  `/scim/v2/%2e%2e/%2e%2e${path}`,
  `/api/v1/%2E%2E/.%2e${path}`,
  `/scim/v2/..%2f..${path}`,
  `/scim/v2/%2f../..${path}`,
  `/scim/v2;/../..${path}`,
  `/api/v1;x=1/../..${path}`,
  `//scim/v2/../..${path}`,
  `/scim//v2/../../..${path}`,
  `/scim/v2\\..\\..${path}`,
  `/scim/v2/./../..${path}`,
  `/scim/v2/../..${path}.data`,
  `/api/v1/x/../../..${path}.data`,
];

describe("a cross-site POST with a session cookie, through an exempt prefix", () => {
  test("creates no token: POST /scim/v2/../../user/tokens.data as bronze from another origin", async () => {
    const bronze = await signInCookie(portal.send, "bronze@demo.local");
    const before = await portal.db.collection(API_TOKENS).countDocuments();
    for (const target of ["/scim/v2/../../user/tokens.data", "/scim/v2/../../user/tokens"]) {
      const reply = await portal.send(target, "POST", bronze, "intent=create&scope=write&name=x&days=30", EVIL);
      expect(reply.status, target).toBe(403);
      expect(reply.body).not.toContain("jps_");
    }
    expect(await portal.db.collection(API_TOKENS).countDocuments()).toBe(before);
  });

  test("reaches no action of any route, in any spelling, as the least and the most privileged user", async () => {
    const cookies = [
      await signInCookie(portal.send, "bronze@demo.local"),
      await signInCookie(portal.send, "sysadmin@demo.local"),
    ];
    const routes = portal.manifest.routes;
    const paths = Object.keys(routes)
      .filter((id) => routes[id]?.module.action)
      .map((id) => `/${patternOf(routes, id).join("/")}`)
      .filter((path) => path !== "/" && !/[:*]/.test(path) && !/^\/(api|scim)\b/i.test(path));
    expect(paths).toContain("/user/tokens");
    expect(paths.length).toBeGreaterThan(20);
    const before = await snapshot(portal.db);
    const admitted: string[] = [];
    for (const cookie of cookies)
      for (const path of paths)
        for (const target of escapes(path)) {
          const reply = await portal.send(target, "POST", cookie, "intent=delete&email=silver%40demo.local", EVIL);
          if (reply.status < 400) admitted.push(`${target} → ${reply.status}`);
        }
    expect(admitted).toEqual([]);
    expect(await snapshot(portal.db)).toBe(before);
  }, 120_000);

  test("the exempt prefixes themselves still take a cross-site call: answered by the API, not refused as CSRF", async () => {
    for (const target of ["/api/v1/uploads", "/API/v1/uploads", "/scim/v2/Users", "/scim/v2/./Users"]) {
      const reply = await portal.send(target, "POST", null, "{}", { ...EVIL, "content-type": "application/json" });
      expect(reply.status, target).toBe(401);
      expect(reply.contentType, target).toMatch(/^application\/(problem|scim)\+json/);
    }
  });
});

describe("what the host refuses before routing, under /api/v1 and /scim/v2", () => {
  test("is answered in the API's own format, never an HTML page", async () => {
    const cases: Array<[string, "GET" | "POST", RegExp]> = [
      ["/api/v1/jobs/%zz", "GET", /^application\/problem\+json/],
      ["/api/v1/jobs/%C0%AF/retry", "POST", /^application\/problem\+json/],
      ["/api/v1/jobs/%zz/refused", "GET", /^application\/problem\+json/],
      ["/API/V1/%E0%A4%A", "GET", /^application\/problem\+json/],
      ["/api/v1/datasets?_data=routes%2Fuser.tokens", "GET", /^application\/problem\+json/],
      ["/scim/v2/Users/%zz", "GET", /^application\/scim\+json/],
      ["/scim/v2/Users/%C0%AF", "POST", /^application\/scim\+json/],
    ];
    for (const [target, method, type] of cases) {
      const reply = await portal.send(target, method, null, method === "POST" ? "{}" : undefined, {
        "content-type": "application/json",
      });
      expect(reply.status, target).toBeGreaterThanOrEqual(400);
      expect(reply.status, target).toBeLessThan(500);
      expect(reply.contentType, target).toMatch(type);
      const body = JSON.parse(reply.body);
      expect(body.status === reply.status || body.status === String(reply.status), target).toBe(true);
      expect(body.detail ?? body.title, target).toBeTruthy();
    }
    expect(portal.errorLines()).toEqual([]);
  });
});
