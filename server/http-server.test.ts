import net, { type AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/config.server";
import { createHostServer, DISCARD_MAX_BYTES, hostServerTimeouts } from "./http-server";

/** The balancers' idle time for their connections to the host (nginx's upstream pool here, an ALB's default). */
const BALANCER_IDLE_MS = 60_000;

describe("the host server's timeouts", () => {
  it("by default keep an idle connection longer than the balancer, and wait for headers longer still", () => {
    const timeouts = hostServerTimeouts(parseConfig({ NODE_ENV: "test" }).httpKeepAliveTimeoutMs);
    expect(timeouts.keepAliveTimeout).toBeGreaterThan(BALANCER_IDLE_MS);
    expect(timeouts.headersTimeout).toBeGreaterThan(timeouts.keepAliveTimeout);
    expect(timeouts.headersTimeout).toBeLessThanOrEqual(timeouts.requestTimeout);
  });

  it("are applied to the server, which Node accepts up to the largest keep-alive time the configuration allows", () => {
    const largest = parseConfig({ NODE_ENV: "test", HTTP_KEEP_ALIVE_TIMEOUT_MS: "299000" }).httpKeepAliveTimeoutMs;
    const server = createHostServer(() => undefined, largest);
    try {
      expect(server.keepAliveTimeout).toBe(largest);
      expect(server.headersTimeout).toBeGreaterThan(largest);
      expect(server.headersTimeout).toBeLessThanOrEqual(server.requestTimeout);
    } finally {
      server.close();
    }
    // One millisecond more would need a headers timeout past Node's request timeout: the start stops with a message.
    expect(() => parseConfig({ NODE_ENV: "test", HTTP_KEEP_ALIVE_TIMEOUT_MS: "299001" })).toThrow(ConfigError);
    expect(() => parseConfig({ NODE_ENV: "test", HTTP_KEEP_ALIVE_TIMEOUT_MS: "299001" })).toThrow(
      /HTTP_KEEP_ALIVE_TIMEOUT_MS/,
    );
  });
});

describe("a response sent before its request's body was read to the end", () => {
  it("leaves the kept-alive connection free for the next request, well before the keep-alive time", async () => {
    // As an upload refused part-way (COD.2's 413): the body is read through Remix's adapter, then left unread.
    const server = createHostServer((req, res) => {
      if (req.method === "GET") return res.end("second");
      const reader = createReadableStreamFromReadable(req).getReader();
      void reader.read().then(() => res.writeHead(413, { "Content-Type": "text/plain" }).end("too large"));
    }, 75_000);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", () => undefined);
    const until = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`no ${what} within 5 s; received: ${received.slice(0, 300)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await new Promise<void>((resolve) => socket.once("connect", resolve));
      const body = Buffer.alloc(4 * 1024 * 1024, "a;b\n");
      socket.write(`POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.write(body);
      await until("413", () => received.includes("too large"));
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      received = "";
      socket.write("GET /next HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      await until("answer to the next request", () => received.includes("second"));
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("cuts a connection whose body goes on past what it discards, instead of reading it to the request timeout", async () => {
    // As the upload refused part-way above, its body read a little through Remix's adapter, then left.
    const server = createHostServer((req, res) => {
      const reader = createReadableStreamFromReadable(req).getReader();
      void reader.read().then(() => res.writeHead(413, { "Content-Type": "text/plain" }).end("too large"));
    }, 75_000);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    try {
      await new Promise<void>((resolve) => socket.once("connect", resolve));
      socket.write("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n");
      const chunk = Buffer.alloc(1024 * 1024, "a");
      const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
      // An endless body: far more than the discard's bound, sent as long as the socket takes it.
      let sent = 0;
      while (!socket.destroyed && sent < DISCARD_MAX_BYTES * 4) {
        if (!socket.write(frame)) await new Promise((r) => socket.once("drain", r).once("close", r));
        sent += chunk.length;
      }
      await closed;
      expect(sent).toBeLessThan(DISCARD_MAX_BYTES * 4);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
