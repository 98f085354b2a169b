import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { MongoClient } from "mongodb";
import { afterAll, describe } from "vitest";
import { routeTree } from "~/platform/auth/return-to.server";
import {
  type Account,
  ALL_ON,
  accountsFor,
  expectedOutcome,
  matchedRoutes,
  pool,
  type Send,
  sampleParams,
  segmentsFor,
} from "../access-matrix/matrix";
import { expect, test } from "./fixtures";
import type { RunningApp } from "./harness";
import { deepPages, EXTRA_PAGES } from "./pages";

/**
 * The bytes of every page, as each account that may open it receives them from the production server: no NUL byte
 * and no U+FFFD (React 18.3.1 sent its 2,048-byte views whole, zeros included, when an accented character did not
 * fit: docs/decisions.md, "React's streaming renderer, corrected at install"). Plain HTTP requests with each account's
 * session, not page navigations: the browser would hide the bytes.
 */

/** The consolidated forecast down to the third level, where NULs were found before "—", "ç" and "ã" at full scale. */
const CONSOLIDATED = "/ij/forecast_consolidado?rf=RF3+2026&nivel=3&vs=realizado&cols=total";

type Answer = { status: number; type: string; body: Buffer; location: string | null; setCookie: string[] };

function requester(app: RunningApp) {
  const base = new URL(app.baseURL);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const request = (target: string, method: "GET" | "POST", cookie: string | null, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const headers: Record<string, string> = { Host: base.host };
      if (cookie) headers.Cookie = cookie;
      if (method === "POST") {
        headers.Origin = base.origin;
        headers["Content-Type"] = "application/x-www-form-urlencoded";
      }
      const req = http.request(
        { host: base.hostname, port: base.port, method, path: target, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers["content-type"] ?? ""),
              body: Buffer.concat(chunks),
              location: (res.headers.location as string | undefined) ?? null,
              setCookie: res.headers["set-cookie"] ?? [],
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const send: Send = async (target, method, cookie, body) => {
    const answer = await request(target, method, cookie, body);
    return { ...answer, body: answer.body.toString("utf8") };
  };
  return { request, send, close: () => agent.destroy() };
}

/** Where a body has a NUL byte or a character that did not decode, with a little of what surrounds it. */
function badBytes(body: Buffer): string | null {
  const nul = body.indexOf(0);
  if (nul >= 0)
    return `NUL at byte ${nul}: ${JSON.stringify(body.subarray(Math.max(0, nul - 40), nul + 8).toString())}`;
  const text = body.toString("utf8");
  const bad = text.indexOf("\uFFFD");
  if (bad >= 0) return `U+FFFD at ${bad}: ${JSON.stringify(text.slice(Math.max(0, bad - 40), bad + 8))}`;
  return null;
}

const clients: MongoClient[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
});

describe("the bytes of every page", () => {
  test("every page, as each account that may open it, has no NUL byte and no U+FFFD", async ({ app }) => {
    const started = Date.now();
    const manifest = (await import(
      /* @vite-ignore */ pathToFileURL(path.resolve("build/server/index.js")).href
    )) as ServerBuild;
    const client = await new MongoClient(app.mongoUri).connect();
    clients.push(client);
    const db = client.db(app.databaseName);
    const portal = requester(app);
    const accounts = await accountsFor({
      manifest,
      db,
      sessionSecret: app.sessionSecret,
      origin: app.baseURL,
      send: portal.send,
      concurrency: 4,
    });
    // Every page route of the build (a resource route answers files, not pages), at its canonical path, plus the
    // pages behind a parameter or a filter, with real values (test/e2e/pages.ts), and the consolidated forecast.
    const samples = await sampleParams(db, app.sessionSecret);
    const pathOf = (id: string) => segmentsFor(manifest, id, samples).map((segment) => segment.text);
    const routePages = Object.keys(manifest.routes)
      .filter((id) => id !== "root" && manifest.routes[id].module.default)
      .map((id) => `/${pathOf(id).join("/")}`);
    const targets = [...new Set([...routePages, ...EXTRA_PAGES, ...(await deepPages(app)), CONSOLIDATED])];
    const tree = routeTree(manifest.routes);
    const base = new URL(app.baseURL);
    const visits: Array<{ target: string; account: Account }> = [];
    for (const target of targets) {
      const matched = matchedRoutes(tree, manifest, base, target);
      for (const account of accounts)
        if (expectedOutcome(matched, manifest, "GET", false, account, ALL_ON) === "pass")
          visits.push({ target, account });
    }

    const problems: string[] = [];
    const pages = new Set<string>();
    const consolidated: Buffer[] = [];
    await pool(visits, 4, async ({ target, account }) => {
      const answer = await portal.request(target, "GET", account.cookie);
      const problem = badBytes(answer.body);
      if (problem) problems.push(`${account.label} GET ${target} (${answer.status}): ${problem}`);
      if (answer.status === 200 && answer.type.startsWith("text/html")) pages.add(target);
      if (target === CONSOLIDATED && answer.status === 200) consolidated.push(answer.body);
    });
    portal.close();
    const took = Date.now() - started;
    process.stdout.write(
      `page bytes: ${visits.length} requests, ${pages.size} pages, ${problems.length} bad, ${took} ms\n`,
    );

    expect(problems).toEqual([]);
    // The check reached the pages: most routes answered a page, and the consolidated forecast its accented rows.
    expect(pages.size).toBeGreaterThan(routePages.length / 2);
    expect(consolidated.length).toBeGreaterThan(0);
    for (const body of consolidated) expect(body.toString("utf8")).toMatch(/data-row="[^"]*[çã]/);
  }, 180_000);
});
