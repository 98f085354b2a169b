import { expect } from "vitest";
import { readToastFromResponse, type Toast } from "~/shared/toast.server";

/**
 * Custom matchers for what loaders and actions return or throw:
 *
 *   expect(response).toRedirectTo("/home");
 *   expect(response).toRedirectTo("/", 303);
 *   await expect(response).toSendToast({ type: "success", description: messages.saved });
 */

type ToastExpectation = Partial<Omit<Toast, "id">>;

function isResponse(value: unknown): value is Response {
  return value instanceof Response;
}

expect.extend({
  toRedirectTo(received: unknown, location: string, status?: number) {
    if (!isResponse(received)) {
      return { pass: false, message: () => `expected a Response, received ${this.utils.printReceived(received)}` };
    }
    const actualLocation = received.headers.get("Location");
    const isRedirect = received.status >= 300 && received.status < 400;
    const statusOk = status === undefined ? isRedirect : received.status === status;
    const pass = statusOk && actualLocation === location;
    return {
      pass,
      message: () =>
        pass
          ? `expected the response not to redirect to ${this.utils.printExpected(location)}`
          : `expected a redirect${status ? ` (${status})` : ""} to ${this.utils.printExpected(location)}, ` +
            `received status ${received.status} with Location ${this.utils.printReceived(actualLocation)}`,
    };
  },

  async toSendToast(received: unknown, expected: ToastExpectation = {}) {
    if (!isResponse(received)) {
      return { pass: false, message: () => `expected a Response, received ${this.utils.printReceived(received)}` };
    }
    const toast = await readToastFromResponse(received);
    const mismatched = toast
      ? (Object.keys(expected) as Array<keyof ToastExpectation>).filter((k) => expected[k] !== toast[k])
      : [];
    const pass = toast !== null && mismatched.length === 0;
    return {
      pass,
      message: () =>
        pass
          ? `expected the response not to set a toast like ${this.utils.printExpected(expected)}`
          : toast
            ? `expected toast ${this.utils.printExpected(expected)}, received ${this.utils.printReceived(toast)}`
            : "expected the response to set a toast cookie, but it set none (or an invalid one)",
    };
  },
});

interface PortalMatchers<R = unknown> {
  /** A 3xx response whose Location is exactly `location` (and whose status is `status`, when given). */
  toRedirectTo(location: string, status?: number): R;
  /** The response sets a valid toast cookie whose fields equal the given ones. Await it. */
  toSendToast(expected?: ToastExpectation): Promise<R>;
}

declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: merged into vitest's Assertion<T = any>, so its parameter must match
  interface Assertion<T = any> extends PortalMatchers<T> {}
  interface AsymmetricMatchersContaining extends PortalMatchers {}
}
