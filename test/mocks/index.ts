import type { RequestHandler } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

/**
 * The msw server for unit and integration tests. Each external service gets its own handler
 * file next to this one (cognito.ts, s3.ts, quicksight.ts, ...), spread into `handlers`.
 * A request that no handler answers fails the test: tests never reach the real internet.
 */
export const handlers: RequestHandler[] = [];

export const server = setupServer(...handlers);

/** Call at the top of a test file that talks to an external service. */
export function useMockServer() {
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export { http, HttpResponse } from "msw";
