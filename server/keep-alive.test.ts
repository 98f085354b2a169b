import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type EmbeddedMongo, startEmbeddedMongo } from "embedded-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type Proc, run, waitFor } from "#test/deploy/stack";

/**
 * The host as `npm run dev` runs it (server/index.ts; no production build needed), seen as the load balancer sees
 * it: one kept-alive connection, reused after it has been idle longer than the balancer's own idle time (60 s for
 * nginx's upstream pool and for an ALB). Had the host closed it first, the balancer's request on it would be a 502.
 */

const BALANCER_IDLE_MS = 60_000;

let mongo: EmbeddedMongo;
let host: Proc;
let port: number;
let dataDir: string;

beforeAll(async () => {
  mongo = await startEmbeddedMongo();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-keep-alive-"));
  port = await freePort();
  host = run(process.execPath, ["--import", "tsx", "server/index.ts"], {
    NODE_ENV: "development",
    PORT: String(port),
    MONGODB_URI: mongo.uri,
    DATABASE_NAME: "keep_alive",
    DATA_DIR: dataDir,
    WORKER_IN_PROCESS: "0",
    HOME: process.env.HOME ?? os.tmpdir(),
  });
  await waitFor(
    "the host listening",
    async () => {
      if (host.child.exitCode !== null) throw new Error(`the host exited:\n${host.output()}`);
      return host.output().includes('"msg":"listening"');
    },
    60_000,
    100,
  );
});

afterAll(async () => {
  await host?.stop();
  await mongo?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** One raw HTTP/1.1 connection, as nginx keeps one: requests are written on it one after another. */
function keptAliveConnection(to: number) {
  const socket = net.connect(to, "127.0.0.1");
  let buffer = "";
  let waiting: (() => void) | undefined;
  let closedAt: number | undefined;
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    waiting?.();
  });
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.on("close", () => {
      closedAt = Date.now();
      waiting?.();
      resolve();
    }),
  );
  const connected = new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });

  /** Sends GET `target` and resolves with the status and headers of the whole response, or rejects when it closes. */
  const get = async (target: string): Promise<{ status: number; headers: Map<string, string>; body: string }> => {
    await connected;
    buffer = "";
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${to}\r\nConnection: keep-alive\r\n\r\n`);
    return new Promise((resolve, reject) => {
      waiting = () => {
        const headEnd = buffer.indexOf("\r\n\r\n");
        if (headEnd >= 0) {
          const [statusLine, ...lines] = buffer.slice(0, headEnd).split("\r\n");
          const headers = new Map(
            lines.map((line) => [
              line.slice(0, line.indexOf(":")).toLowerCase(),
              line.slice(line.indexOf(":") + 1).trim(),
            ]),
          );
          const body = buffer.slice(headEnd + 4);
          if (body.length >= Number(headers.get("content-length"))) {
            waiting = undefined;
            resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
            return;
          }
        }
        if (closedAt !== undefined) {
          waiting = undefined;
          reject(new Error(`the host closed the connection (received ${JSON.stringify(buffer.slice(0, 200))})`));
        }
      };
      waiting();
    });
  };
  return { socket, get, closed, closedAt: () => closedAt };
}

describe("the host's kept-alive connections", () => {
  it("answers a request on a connection idle for longer than the balancer's idle time, and closes it at once on SIGTERM", async () => {
    const connection = keptAliveConnection(port);
    const first = await connection.get("/healthz");
    expect(first.status).toBe(200);
    expect(first.headers.get("connection")).toBe("keep-alive");
    const localPort = connection.socket.localPort;
    const idleSince = Date.now();

    await new Promise((resolve) => setTimeout(resolve, BALANCER_IDLE_MS + 5_000));
    const closedAt = connection.closedAt();
    expect(closedAt === undefined ? "open" : `closed by the host after ${closedAt - idleSince} ms idle`).toBe("open");
    const second = await connection.get("/healthz");
    expect(second.status).toBe(200);
    expect(second.body).toBe('{"status":"ok"}');
    // The same connection carried it.
    expect(connection.socket.localPort).toBe(localPort);
    // The idle time the host advertises is above the balancer's too.
    const advertised = Number(/timeout=(\d+)/.exec(second.headers.get("keep-alive") ?? "")?.[1]);
    expect(advertised * 1000).toBeGreaterThan(BALANCER_IDLE_MS);

    // The drain ends the idle connection at once: the long keep-alive time does not hold the shutdown.
    const stopping = Date.now();
    host.child.kill("SIGTERM");
    await connection.closed;
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(await host.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(10_000);
  }, 90_000);
});
