import net from "node:net";
import { BSON } from "bson";
import { afterEach, describe, expect, it } from "vitest";
import { type EmbeddedMongo, startEmbeddedMongo } from "./index";
import { MAX_MESSAGE_SIZE } from "./limits";

/**
 * What one client may hold of the server: a connection count (further connections are closed at once) and, per
 * connection, at most one message of maxMessageSizeBytes (what `hello` announces); a longer one closes it.
 */

const OP_MSG = 2013;

function hello(requestId: number): Buffer {
  const body = Buffer.from(BSON.serialize({ hello: 1, $db: "admin" }));
  const header = Buffer.alloc(21);
  header.writeInt32LE(21 + body.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(OP_MSG, 12);
  return Buffer.concat([header, body]);
}

type Probe = { socket: net.Socket; closed: Promise<void>; isClosed: () => boolean; firstReply: Promise<Buffer> };

function connect(port: number): Probe {
  const socket = net.connect(port, "127.0.0.1");
  let closed = false;
  const closedPromise = new Promise<void>((resolve) =>
    socket.on("close", () => {
      closed = true;
      resolve();
    }),
  );
  socket.on("error", () => undefined);
  const firstReply = new Promise<Buffer>((resolve, reject) => {
    socket.once("data", resolve);
    socket.once("close", () => reject(new Error("closed before a reply")));
  });
  firstReply.catch(() => undefined);
  return { socket, closed: closedPromise, isClosed: () => closed, firstReply };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: EmbeddedMongo | undefined;
const probes: Probe[] = [];
afterEach(async () => {
  for (const p of probes.splice(0)) p.socket.destroy();
  await server?.stop();
  server = undefined;
});

describe("connection limits", () => {
  it("closes connections beyond maxConnections, and takes new ones once others left", async () => {
    server = await startEmbeddedMongo({ maxConnections: 3 });
    const open = [0, 1, 2].map(() => connect(server!.port));
    probes.push(...open);
    for (const [i, p] of open.entries()) {
      p.socket.write(hello(i + 1));
      await p.firstReply;
    }
    const extra = connect(server.port);
    probes.push(extra);
    extra.socket.write(hello(9));
    await extra.closed;
    await expect(extra.firstReply).rejects.toThrow(/closed before a reply/);

    open[0].socket.destroy();
    await open[0].closed;
    await sleep(50);
    const again = connect(server.port);
    probes.push(again);
    again.socket.write(hello(10));
    expect((await again.firstReply).length).toBeGreaterThan(16);
  });

  it("allows about a thousand connections by default", async () => {
    server = await startEmbeddedMongo();
    expect(server.maxConnections).toBe(1000);
  });
});

describe("message size", () => {
  it("closes a connection whose message is longer than maxMessageSizeBytes", async () => {
    server = await startEmbeddedMongo();
    const probe = connect(server.port);
    probes.push(probe);
    const header = Buffer.alloc(16);
    header.writeInt32LE(MAX_MESSAGE_SIZE + 1, 0);
    header.writeInt32LE(1, 4);
    header.writeInt32LE(OP_MSG, 12);
    probe.socket.write(header);
    await Promise.race([probe.closed, sleep(2000)]);
    expect(probe.isClosed()).toBe(true);
  });

  it("waits for the rest of a message of exactly maxMessageSizeBytes", async () => {
    server = await startEmbeddedMongo();
    const probe = connect(server.port);
    probes.push(probe);
    const header = Buffer.alloc(16);
    header.writeInt32LE(MAX_MESSAGE_SIZE, 0);
    header.writeInt32LE(1, 4);
    header.writeInt32LE(OP_MSG, 12);
    probe.socket.write(header);
    await sleep(200);
    expect(probe.isClosed()).toBe(false);
  });
});
