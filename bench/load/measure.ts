/** One closed-loop load run (autocannon), as the load benches measure a page: 50 connections, latency percentiles. */
import { createRequire } from "node:module";
import { BROWSER_ACCEPT_ENCODING } from "./pages";

/** The signed-in users of a load run: one connection each. */
export const USERS = 50;

const require = createRequire(import.meta.url);
// autocannon ships no types; the part used here is typed below.
type Instance = {
  on(event: "response", fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};
type AutocannonResult = {
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { total: number; average: number };
};
type Autocannon = ((
  opts: Record<string, unknown>,
  cb: (err: Error | null, result: AutocannonResult) => void,
) => Instance) & {
  track?: unknown;
};
const autocannon = require("autocannon") as Autocannon;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export type Measure = {
  name: string;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  errors: number;
  requests: number;
};

/**
 * One autocannon run on a path, asking for what browsers ask for; each connection carries its own session cookie
 * (`cookies` used in turn; none when empty).
 */
export function measure(
  base: string,
  name: string,
  urlPath: string,
  cookies: string[],
  seconds: number,
  connections = USERS,
): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let next = 0;
    const headers = { "accept-encoding": BROWSER_ACCEPT_ENCODING, accept: "text/html" };
    const instance = autocannon(
      {
        url: `${base}${urlPath}`,
        connections,
        duration: seconds,
        timeout: 60,
        headers,
        setupClient: (client: { setHeaders(h: Record<string, string>): void }) => {
          client.setHeaders(cookies.length ? { ...headers, cookie: cookies[next++ % cookies.length] } : headers);
        },
      },
      (error, result) => {
        if (error) return reject(error);
        latencies.sort((a, b) => a - b);
        resolve({
          name,
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
          p99: percentile(latencies, 99),
          rps: result.requests.average,
          errors: result.errors + result.timeouts + result.non2xx,
          requests: result.requests.total,
        });
      },
    );
    instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}
