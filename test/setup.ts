import { afterEach, beforeEach, expect, vi } from "vitest";
import "./matchers";

// The import pipeline's datasets, as every process of the portal registers them when it starts. The embedded
// database's own tests never reach the portal's code: they skip loading it.
if (!expect.getState().testPath?.includes("/packages/")) (await import("~/datasets.server")).registerPortalDatasets();

// A console.error during a test is a failure: it usually hides a swallowed bug.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length > 0) {
    const text = errors.map((a) => a.map(String).join(" ")).join("\n");
    throw new Error(`console.error was called during the test:\n${text}`);
  }
});
