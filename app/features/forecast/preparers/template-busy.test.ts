import ExcelJS from "exceljs";
import { describe, expect, it, vi } from "vitest";
import {
  boundedThreadsWaiting,
  boundedThreadTexts,
  THREAD_WAIT_MS,
  takeThreadSlot,
} from "~/shared/bounded-thread.server";
import { fileErrorMessage, readTemplateRows } from "./template.server";

describe("the preparers' template sent while every reading thread is taken", () => {
  it("is answered with the busy message, not a server error", async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Modelo").addRow(["cost_center_concat", "user_email"]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    const held = [await takeThreadSlot(), await takeThreadSlot()];
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const read = readTemplateRows(bytes, false);
      await vi.waitFor(() => expect(boundedThreadsWaiting()).toBe(1));
      await vi.advanceTimersByTimeAsync(THREAD_WAIT_MS);
      expect(await read).toEqual({ ok: false, code: "busy" });
    } finally {
      vi.useRealTimers();
      for (const slot of held) slot.release();
    }
    expect(fileErrorMessage("busy")).toBe(boundedThreadTexts.busy);
  });
});
