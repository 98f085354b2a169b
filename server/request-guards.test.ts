import http, { type Server } from "node:http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { messages } from "../app/messages";
import { rejectCrossOrigin, rejectInvalidHost, rejectLegacyDataRequests } from "./request-guards";

/**
 * The host's refusal of Remix 1 data requests (`?_data=`), on the query as Remix itself reads it (every key of the
 * URL's search, parsed as URLSearchParams), not on Express's parse, which stops at 1,000 keys.
 */

let servers: Server[] = [];

afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  servers = [];
});

/**
 * A guard as the host mounts it (the "simple" query parser), in front of a route that answers 200 with the Origin it
 * was handed.
 */
async function start(guard: express.RequestHandler = rejectLegacyDataRequests): Promise<string> {
  const app = express();
  app.set("query parser", "simple");
  app.use(guard);
  app.all("*", (req, res) => void res.status(200).send(`route ${req.headers.origin ?? "(no origin)"}`));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const dummies = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=1`).join("&");

describe("rejectLegacyDataRequests", () => {
  it("refuses ?_data wherever it stands in the query, after 1,000 other keys too", async () => {
    const base = await start();
    for (const query of [
      "?_data=routes/ij",
      `?${dummies(1000)}&_data=routes/ij`,
      `?${dummies(1500)}&_data=root`,
      "?%5Fdata=routes/ij",
      "?a=1&_data",
    ]) {
      const answer = await fetch(`${base}/ij/plan_edit${query}`, { method: "POST", body: "x=1" });
      expect(answer.status, query.slice(-40)).toBe(400);
      expect(await answer.text()).toContain(messages.legacyDataRequest.slice(0, 30));
    }
  });

  it("lets a query without _data through, however long", async () => {
    const base = await start();
    for (const query of ["", "?data=1", `?${dummies(1500)}`, "?_datax=1", "?x=_data"]) {
      expect((await fetch(`${base}/ij/plan_edit${query}`)).status, query.slice(-40)).toBe(200);
    }
  });
});

/** A POST with headers fetch would not send as written (Host), answered as status and body. */
function rawPost(base: string, path: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request({ host: hostname, port, method: "POST", path, headers }, (response) => {
      let body = "";
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end("a=1");
  });
}

describe("rejectCrossOrigin", () => {
  const guard = rejectCrossOrigin({ allowedOrigins: ["https://alias.example"], ssoMode: "saml" });
  const post = (base: string, path: string, origin: string) =>
    fetch(`${base}${path}`, { method: "POST", headers: { Origin: origin }, body: "a=1" });

  it("passes the Origin a browser sent on, unchanged: its own, an allowed alias's, and any to the API", async () => {
    const base = await start(guard);
    expect(await (await post(base, "/user/tokens", base)).text()).toBe(`route ${base}`);
    expect(await rawPost(base, "/user/tokens", { Host: "alias.example", Origin: "https://alias.example" })).toEqual({
      status: 200,
      body: "route https://alias.example",
    });
    expect(await (await post(base, "/api/v1/uploads", "https://evil.example")).text()).toBe(
      "route https://evil.example",
    );
  });

  it("refuses another origin on any path that routes outside the exempt prefixes, however it is spelled", async () => {
    const base = await start(guard);
    for (const path of [
      "/user/tokens",
      "/scim/v2/../../user/tokens",
      "/api/v1/%2e%2e/%2e%2e/user/tokens",
      "/saml/../x",
    ])
      expect((await post(base, path, "https://evil.example")).status, path).toBe(403);
  });

  it("hands the SAML consumer the IdP's POST without its Origin (Remix would answer 500), and no other route", async () => {
    const base = await start(guard);
    expect(await (await post(base, "/saml", "https://idp.example")).text()).toBe("route (no origin)");
    expect(await (await post(base, "/x/../saml", "https://idp.example")).text()).toBe("route (no origin)");
    const off = await start(rejectCrossOrigin({ allowedOrigins: [], ssoMode: "cognito" }));
    expect((await post(off, "/saml", "https://idp.example")).status).toBe(403);
  });

  it("refuses with 403 what Remix's own check would answer with a 500: an Origin not of the Host it is handed", async () => {
    const base = await start(guard);
    // An allowed origin reached under another Host, and a single-fetch action under the API from another site.
    expect((await post(base, "/user/tokens", "https://alias.example")).status).toBe(403);
    for (const origin of ["https://evil.example", "x", "null"])
      expect((await post(base, "/api/v1/jobs.data", origin)).status, origin).toBe(403);
    expect((await post(base, "/api/v1/jobs", "x")).status).toBe(200);
  });

  it("compares host names without case: a Host written in capitals is the same host", async () => {
    const app = express();
    app.use(
      rejectInvalidHost(() => undefined),
      guard,
    );
    app.all("*", (req, res) => void res.status(200).send(String(req.headers.host)));
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    servers.push(server);
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const port = new URL(base).port;
    expect(
      await rawPost(base, "/user/tokens", { Host: `Portal.Example:${port}`, Origin: `http://portal.example:${port}` }),
    ).toEqual({ status: 200, body: `portal.example:${port}` });
  });
});
