import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { MongoClient } from "mongodb";
import { afterAll, describe } from "vitest";
import { ALL_ON, type Reply, runMatrix, type Send, summarise } from "../access-matrix/matrix";
import { expect, test } from "./fixtures";
import type { RunningApp } from "./harness";

/**
 * The access matrix over a socket, against the production server: for every route of the build, one probe per
 * method and kind of refusal (signed out, an emptied type, a type the rule refuses, the legacy `?_data`), with the
 * exact bytes of the target on the wire. The whole matrix (every account × spelling) runs in-process in the unit tier
 * (test/access-matrix.test.ts); this keeps the socket path, Node's HTTP parser and the host in front of it, covered.
 */

function socketSend(app: RunningApp): Send {
  const base = new URL(app.baseURL);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  return (target, method, cookie, body) =>
    new Promise<Reply>((resolve, reject) => {
      const headers: Record<string, string> = { Host: base.host, Connection: "keep-alive" };
      if (cookie) headers.Cookie = cookie;
      if (method === "POST") {
        headers.Origin = base.origin;
        headers["Content-Type"] = "application/x-www-form-urlencoded";
        headers["Content-Length"] = String(Buffer.byteLength(body ?? ""));
      }
      const req = http.request(
        { host: base.hostname, port: base.port, method, path: target, headers, agent },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            if (text.length < 4096) text += chunk;
          });
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              location: (res.headers.location as string | undefined) ?? null,
              body: text,
              setCookie: res.headers["set-cookie"] ?? [],
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body ?? undefined);
    });
}

const clients: MongoClient[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
});

describe("one probe per route and kind of refusal, over a socket", () => {
  test("every route refuses signed-out, expired, refused-type and legacy requests as its rule says", async ({
    app,
  }) => {
    const manifest = (await import(
      /* @vite-ignore */ pathToFileURL(path.resolve("build/server/index.js")).href
    )) as ServerBuild;
    const logged = app.output().length;
    const client = await new MongoClient(app.mongoUri).connect();
    clients.push(client);
    const result = await runMatrix(
      {
        manifest,
        db: client.db(app.databaseName),
        sessionSecret: app.sessionSecret,
        origin: app.baseURL,
        send: socketSend(app),
        concurrency: 8,
      },
      {
        features: ALL_ON,
        spellings: ["canonical"],
        refusalSpellings: ["canonical", "legacyData"],
        onePerRefusal: true,
      },
    );
    process.stdout.write(`access probes over a socket: ${result.cases} probes, ${result.failures.length} failures\n`);
    expect(summarise(result.failures)).toEqual([]);
    expect(result.refused).toBeGreaterThan(100);
    expect(app.output().slice(logged)).not.toMatch(/"level":"error"/);
  }, 300_000);
});
