import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

/**
 * The msw server for unit and integration tests. Each external service has its own handler file next
 * to this one (cognito.ts, cognito-jwks.ts, s3.ts, quicksight.ts). Those handlers answer from state a
 * test arranges (a fake user pool, a fake bucket, the embed calls it expects), so the server starts
 * with none: a test installs the ones it needs with `server.use(...)`, and they are removed after
 * each test. A request that no handler answers fails the test: tests never reach the real internet.
 */
export const server = setupServer();

/** Call at the top of a test file that talks to an external service. */
export function useMockServer() {
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export { HttpResponse, http } from "msw";
