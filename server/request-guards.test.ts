import type { Server } from "node:http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { messages } from "../app/messages";
import { rejectLegacyDataRequests } from "./request-guards";

/**
 * The host's refusal of Remix 1 data requests (`?_data=`), on the query as Remix itself reads it (every key of the
 * URL's search, parsed as URLSearchParams), not on Express's parse, which stops at 1,000 keys.
 */

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** The guard as the host mounts it (the "simple" query parser), in front of a route that answers 200. */
async function start(): Promise<string> {
  const app = express();
  app.set("query parser", "simple");
  app.use(rejectLegacyDataRequests);
  app.all("*", (_req, res) => void res.status(200).send("route"));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
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
