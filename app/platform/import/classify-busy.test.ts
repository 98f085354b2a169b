import { Readable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { useTempDataDir, xlsxBuffer } from "#test/upload-fixtures";
import { generateStorageKey, getLocalStore, LOCAL_BUCKET } from "~/services/storage.server";
import { boundedThreadsWaiting, THREAD_WAIT_MS, ThreadBusyError, takeThreadSlot } from "~/shared/bounded-thread.server";
import { classifyStoredObject } from "./hr-file-view.server";

/** A file's class is only ever changed towards HR: a busy server must not decide it. */

useTempDataDir();

describe("classifying a stored XLSX while every reading thread is taken", () => {
  it("gives no class (ThreadBusyError), where an unreadable file would be classified HR for good", async () => {
    const key = generateStorageKey("lojas.xlsx");
    const bytes = await xlsxBuffer([
      ["loja", "cidade"],
      ["Loja Centro", "Piracicaba"],
    ]);
    await getLocalStore().putStream(key, Readable.from([bytes]), { maxBytes: 1e6 });
    expect(await classifyStoredObject(LOCAL_BUCKET, key)).toEqual({ dataClass: "plain", by: "no-hr-sign" });
    const held = [await takeThreadSlot(), await takeThreadSlot()];
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const found = classifyStoredObject(LOCAL_BUCKET, key);
      const settled = expect(found).rejects.toThrow(ThreadBusyError);
      await vi.waitFor(() => expect(boundedThreadsWaiting()).toBe(1));
      await vi.advanceTimersByTimeAsync(THREAD_WAIT_MS);
      await settled;
    } finally {
      vi.useRealTimers();
      for (const slot of held) slot.release();
    }
    expect(boundedThreadsWaiting()).toBe(0);
  });
});
