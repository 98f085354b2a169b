import { describe, expect, it } from "vitest";
import { fiveSecondToastId, toastDismissMs } from "./toaster";

describe("toast timing", () => {
  it("hides the upload toast after 5 seconds and keeps 6 seconds for the others", () => {
    const id = fiveSecondToastId();
    expect(id.length).toBeLessThanOrEqual(64); // the toast cookie's id limit
    expect(toastDismissMs({ id })).toBe(5000);
    expect(toastDismissMs({ id: crypto.randomUUID() })).toBe(6000);
    expect(fiveSecondToastId()).not.toBe(id);
  });
});
