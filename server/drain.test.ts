import type { Server } from "node:http";
import net from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { connectionRefused } from "#test/net";
import { createDrain } from "./drain";

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A host with the drain middleware and one route that answers once the whole request body is in. */
async function startHost() {
  const drain = createDrain();
  const app = express();
  app.use(drain.middleware);
  app.post("/upload", express.text({ type: "*/*" }), (req, res) => {
    res.status(200).send(`received ${String(req.body).length} bytes`);
  });
  // Headers and a first line go out at once; the response ends when the request body has arrived.
  app.post("/stream", (req, res) => {
    res.writeHead(200, { "Content-Type": "text/plain", "Transfer-Encoding": "chunked" });
    res.write("started\n");
    req.resume();
    req.on("end", () => res.end("done"));
  });
  const listening = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  listening.keepAliveTimeout = 60_000;
  server = listening;
  const address = listening.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { drain, port, server: listening };
}

/** A client that sends the request head now and the body later, reading the raw response. */
function slowUpload(port: number, body: string) {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  // `Expect: 100-continue`: the server answers "100 Continue" once it has dispatched the request.
  const dispatched = new Promise<void>((resolve) => {
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (received.startsWith("HTTP/1.1 100 Continue\r\n\r\n")) resolve();
    });
  });
  socket.write(
    `POST /upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  return { dispatched, sendBody: () => socket.write(body), closed };
}

describe("createDrain", () => {
  it("finishes a request in flight, refuses new connections and then closes", async () => {
    const host = await startHost();
    const upload = slowUpload(host.port, "x".repeat(5000));
    await upload.dispatched;

    let drained = false;
    const draining = host.drain.drain(host.server).then(() => (drained = true));
    expect(host.drain.draining).toBe(true);
    expect(await connectionRefused(host.port)).toBe(true);
    expect(drained).toBe(false);

    upload.sendBody();
    const raw = await upload.closed;
    const response = raw.slice("HTTP/1.1 100 Continue\r\n\r\n".length);
    expect(response).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(response).toMatch(/\r\nConnection: close\r\n/i);
    expect(response.endsWith("received 5000 bytes")).toBe(true);
    await draining;
    expect(drained).toBe(true);
  });

  it("closes a kept-alive connection whose response had already started, once it is out", async () => {
    const host = await startHost();
    const socket = net.connect(host.port, "127.0.0.1");
    let received = "";
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    const started = new Promise<void>((resolve) =>
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("latin1");
        if (received.includes("started\n")) resolve();
      }),
    );
    socket.write(`POST /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nConnection: keep-alive\r\n\r\n`);
    await started;
    expect(received).toMatch(/\r\nConnection: keep-alive\r\n/i);

    const draining = host.drain.drain(host.server);
    socket.write("end");
    // The keep-alive timeout is a minute: only the drain closes this connection in time.
    await closed;
    await draining;
    // The whole chunked body arrived, terminating chunk included.
    expect(received).toMatch(/\r\n4\r\ndone\r\n0\r\n\r\n$/);
  });

  it("waits for a handler whose client dropped the connection to end its response before it is over (no database closed under it)", async () => {
    const drain = createDrain();
    const app = express();
    app.use(drain.middleware);
    let databaseOpen = true;
    let handlerSawDatabase: boolean | undefined;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const handling = new Promise<void>((resolve) => (reached = resolve));
    app.get("/slow", async (_req, res) => {
      reached();
      await released;
      // A handler at work reads the database, then answers.
      handlerSawDatabase = databaseOpen;
      res.status(200).send("ok");
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const socket = net.connect(port, "127.0.0.1");
    socket.write(`GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await handling;
    // The client goes away while the handler works: its connection closes at once.
    socket.destroy();
    const drained = drain.drain(server).then(() => (databaseOpen = false));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(drain.inFlight).toBe(1);
    release();
    await drained;
    expect(handlerSawDatabase).toBe(true);
  });

  it("is over at the grace deadline even if a handler never ends", async () => {
    const drain = createDrain();
    const app = express();
    app.use(drain.middleware);
    app.get("/never", () => undefined);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const socket = net.connect(port, "127.0.0.1");
    socket.write(`GET /never HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    const started = Date.now();
    await drain.drain(server, 300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(drain.inFlight).toBe(1);
  });
});
