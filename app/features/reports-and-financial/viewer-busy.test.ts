import { afterEach, describe, expect, it, vi } from "vitest";
import { viewerPageData } from "~/features/reports-and-financial/viewer.server";
import {
  boundedThreadsRunning,
  boundedThreadsWaiting,
  boundedThreadTexts,
  THREAD_WAIT_MS,
  takeThreadSlot,
} from "~/shared/bounded-thread.server";

/** The online viewer while every bounded thread is taken (bounded-thread.server.ts MAX_BOUNDED_THREADS). */

// Not in the store: a page that read it before its turn would say the download failed, not that the server is busy.
const record = { _id: "r1", bucket: "local", originalFile: "documents/ausente.xlsx", originalName: "a.xlsx", url: "x" };

afterEach(() => {
  vi.useRealTimers();
  expect(boundedThreadsRunning()).toBe(0);
  expect(boundedThreadsWaiting()).toBe(0);
});

describe("the viewer waits in line for a converting thread", () => {
  it("past the longest wait, says the server is busy, having read nothing", async () => {
    const held = [await takeThreadSlot(), await takeThreadSlot()];
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const page = viewerPageData(record);
    await vi.advanceTimersByTimeAsync(THREAD_WAIT_MS);
    expect(await page).toMatchObject({ content: null, error: boundedThreadTexts.busy });
    for (const slot of held) slot.release();
  });

  it("a page whose request is given up leaves the line", async () => {
    const held = [await takeThreadSlot(), await takeThreadSlot()];
    const request = new AbortController();
    const page = viewerPageData(record, request.signal);
    await vi.waitFor(() => expect(boundedThreadsWaiting()).toBe(1));
    request.abort();
    expect(await page).toMatchObject({ content: null });
    expect(boundedThreadsWaiting()).toBe(0);
    for (const slot of held) slot.release();
  });
});
