import { readdirSync, readFileSync } from "node:fs";
import http, { type Server } from "node:http";
import { createReadableStreamFromReadable, type ServerBuild } from "@remix-run/node";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { bodyLimitFor, limitFromBuild, limitRequestBodies, ROUTE_BODY_LIMITS } from "./body-limit";

const MB = 1024 * 1024;

/** The route manifest's shape for a few routes (as the Remix build has them). */
const route = (id: string, parentId: string | undefined, path?: string, index?: boolean) => ({
  id,
  parentId,
  path,
  index,
  caseSensitive: undefined,
  module: {},
});
const build = {
  basename: undefined,
  routes: Object.fromEntries(
    [
      route("root", undefined, ""),
      route("routes/_index", "root", undefined, true),
      route("routes/api.upload", "root", "api/upload"),
      route("routes/ij", "root", "ij"),
      route("routes/ij.rh_edit.$filial", "routes/ij", "rh_edit/:filial"),
      route("routes/ij.rh_edit.$filial.excel", "routes/ij", "rh_edit/:filial/excel"),
      route("routes/ij.$", "routes/ij", "*"),
    ].map((r) => [r.id, r]),
  ),
} as unknown as ServerBuild;

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** The host's body limit in front of a route that reads its form as Remix actions do (`request.formData()`). */
async function startHost(maxBytes = MB) {
  const app = express();
  app.use(limitRequestBodies({ maxBytes, limitFor: limitFromBuild(build, maxBytes) }));
  app.all("*", async (req, res) => {
    try {
      // What @remix-run/express hands an action: the request's own stream as the body.
      const init = {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: createReadableStreamFromReadable(req),
        duplex: "half",
      };
      const form = await new Request(`http://127.0.0.1${req.originalUrl}`, init as RequestInit).formData();
      res.status(200).send(`fields ${[...form.keys()].length}, bytes ${String(form.get("a") ?? "").length}`);
    } catch (error) {
      res.status(400).send((error as Error).message);
    }
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return (server.address() as { port: number }).port;
}

type Answer = { status: number; body: string; sent: number };

/**
 * Posts a urlencoded form of `total` bytes in 64 KB writes (chunked unless `declare`), stopping when the answer
 * comes. `onChunk` runs after each write. Each write waits a turn of the event loop, so the answer is read as soon as
 * it arrives: writing on in one synchronous loop, the client met the server's close (EPIPE) before it had read the 413.
 */
function post(
  port: number,
  path: string,
  total: number,
  options: { declare?: boolean; onChunk?: () => void } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
    if (options.declare) headers["Content-Length"] = String(total);
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers });
    const first = Buffer.alloc(64 * 1024, "a");
    first.write("a=", "latin1");
    const rest = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, sent }));
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const write = () => {
      if (answered) return;
      if (sent >= total) return void req.end();
      const part = (sent === 0 ? first : rest).subarray(0, Math.min(rest.length, total - sent));
      const more = req.write(part);
      sent += part.length;
      options.onChunk?.();
      if (more) setImmediate(write);
      else req.once("drain", write);
    };
    write();
  });
}

describe("limitRequestBodies", () => {
  it("answers a 50 MB chunked POST to / with 413 without holding it (RSS grows by less than 20 MB)", async () => {
    const port = await startHost();
    const before = process.memoryUsage.rss();
    let peak = before;
    const answer = await post(port, "/", 50 * MB, {
      onChunk: () => (peak = Math.max(peak, process.memoryUsage.rss())),
    });
    peak = Math.max(peak, process.memoryUsage.rss());
    expect(peak - before).toBeLessThan(20 * MB);
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("1 MB");
  });

  it("answers 413 at once to a declared Content-Length over the limit", async () => {
    const port = await startHost();
    const answer = await post(port, "/", 5 * MB, { declare: true });
    expect(answer.status).toBe(413);
    expect(answer.sent).toBeLessThan(5 * MB);
  });

  it("hands a body within the limit to the route, chunked or declared", async () => {
    const port = await startHost();
    expect(await post(port, "/", MB - 10)).toMatchObject({ status: 200, body: `fields 1, bytes ${MB - 12}` });
    expect(await post(port, "/?index", 300_000, { declare: true })).toMatchObject({
      status: 200,
      body: "fields 1, bytes 299998",
    });
  });

  it("leaves the upload routes their own limits, on the route Remix matches", async () => {
    const port = await startHost();
    // The router matches case-insensitively: this is still the upload route.
    expect((await post(port, "/Api/Upload", 3 * MB)).status).toBe(200);
    // A branch's Excel round trip takes its file (20 MB); the branch's own page, a splat and a lookalike do not.
    expect((await post(port, "/ij/rh_edit/0101/excel.data", 3 * MB)).status).toBe(200);
    expect((await post(port, "/ij/rh_edit/excel", 3 * MB)).status).toBe(413);
    expect((await post(port, "/ij/other/excel", 3 * MB)).status).toBe(413);
    expect((await post(port, "/api/upload/x", 3 * MB)).status).toBe(413);
  });
});

/**
 * A build where an index route with a limit of its own sits under a page that has none: Remix runs the index route's
 * action only for `?index` (a naked `index` key anywhere in the query), and the page's otherwise.
 */
const page = { default: () => null };
const indexBuild = {
  basename: undefined,
  routes: Object.fromEntries(
    [
      { ...route("root", undefined, ""), module: page },
      { ...route("routes/api", "root", "api"), module: page },
      { ...route("routes/api.upload", "routes/api", "upload"), module: page },
      { ...route("routes/ij.rh_edit.$filial", "root", "ij/rh_edit/:filial"), module: page },
      { ...route("routes/ij.rh_edit.$filial.excel", "routes/ij.rh_edit.$filial", undefined, true), module: page },
    ].map((r) => [r.id, r]),
  ),
} as unknown as ServerBuild;

describe("bodyLimitFor and ?index", () => {
  const many = Array.from({ length: 1500 }, (_, i) => `k${i}=1`).join("&");

  it("reads the limit of the route whose action Remix runs: the index route only with a naked ?index", () => {
    expect(bodyLimitFor(indexBuild, "/api/upload", MB, "")).toBe("own");
    expect(bodyLimitFor(indexBuild, "/api/upload", MB, "?index")).toBe("own");
    // The index route of a page without a limit: its action needs ?index, else the page's action runs.
    const excel = ROUTE_BODY_LIMITS["routes/ij.rh_edit.$filial.excel"];
    expect(bodyLimitFor(indexBuild, "/ij/rh_edit/1/", MB, "")).toBe(MB);
    expect(bodyLimitFor(indexBuild, "/ij/rh_edit/1/", MB, "?index=x")).toBe(MB);
    expect(bodyLimitFor(indexBuild, "/ij/rh_edit/1/", MB, "?index")).toBe(excel);
    expect(bodyLimitFor(indexBuild, "/ij/rh_edit/1/", MB, `?${many}&index`)).toBe(excel);
    expect(bodyLimitFor(indexBuild, "/ij/rh_edit/1.data", MB, "?index")).toBe(excel);
  });

  it("answers 413 to a large body for the page's own action, whatever the index route's limit", async () => {
    const app = express();
    app.use(limitRequestBodies({ maxBytes: MB, limitFor: limitFromBuild(indexBuild, MB) }));
    app.all("*", (_req, res) => void res.status(200).send("route"));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const port = (server.address() as { port: number }).port;
    expect((await post(port, "/ij/rh_edit/1", 3 * MB, { declare: true })).status).toBe(413);
    expect((await post(port, `/ij/rh_edit/1?${many}&index`, 3 * MB, { declare: true })).status).toBe(200);
  });
});

describe("bodyLimitFor", () => {
  it("reads the limit of the matched leaf route, the default otherwise", () => {
    expect(bodyLimitFor(build, "/api/upload", MB)).toBe("own");
    expect(bodyLimitFor(build, "/api/upload.data", MB)).toBe("own");
    expect(bodyLimitFor(build, "/ij/rh_edit/x/excel", MB)).toBe(ROUTE_BODY_LIMITS["routes/ij.rh_edit.$filial.excel"]);
    expect(bodyLimitFor(build, "/_root.data", MB)).toBe(MB);
    expect(bodyLimitFor(build, "/nowhere", MB)).toBe(MB);
  });

  it("names every route whose action reads a file", () => {
    // A thin route hands its body to its feature: the feature functions that read one count too.
    const readsFile =
      /\b(handleUpload|returnedFileOf|importEditedExport|readSmallMultipart|readLimitedJson|readLimitedText|cockpitPreviewAction|saveReview)\(/;
    const routes = readdirSync("app/routes")
      .filter((file) => readsFile.test(readFileSync(`app/routes/${file}`, "utf8")))
      .map((file) => `routes/${file.replace(/\.tsx?$/, "")}`);
    expect(routes.length).toBeGreaterThanOrEqual(10);
    expect(routes.filter((id) => !(id in ROUTE_BODY_LIMITS))).toEqual([]);
  });
});
