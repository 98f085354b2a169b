import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/config.server";
import { createHostServer, hostServerTimeouts } from "./http-server";

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
