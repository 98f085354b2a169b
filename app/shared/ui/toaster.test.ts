import { describe, expect, it } from "vitest";
import { toastDismissMs } from "./toaster";

describe("toast timing", () => {
  it("keeps a toast for its own duration (the upload message: 5 s) and 6 s otherwise", () => {
    expect(toastDismissMs({ durationMs: 5000 })).toBe(5000);
    expect(toastDismissMs({})).toBe(6000);
  });
});
