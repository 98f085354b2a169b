import { describe, expect, it, vi } from "vitest";
import {
  captureFrameState,
  type EmbeddedFrame,
  type FrameParameter,
  type FrameState,
  renewalDelayMs,
  startEmbedSession,
} from "./renewal";

/** A fake embedded dashboard: the user can move to another sheet and change parameters in it. */
class FakeFrame implements EmbeddedFrame {
  constructor(
    readonly url: string,
    public sheetId: string,
    public parameters: FrameParameter[],
  ) {}
  async getSelectedSheetId() {
    return this.sheetId;
  }
  async getParameters() {
    return this.parameters;
  }
}

function fakeTimers() {
  const pending: { cb: () => void; ms: number; id: number }[] = [];
  let next = 1;
  return {
    pending,
    setTimer: (cb: () => void, ms: number) => {
      const id = next++;
      pending.push({ cb, ms, id });
      return id;
    },
    clearTimer: (id: unknown) => {
      const i = pending.findIndex((p) => p.id === id);
      if (i >= 0) pending.splice(i, 1);
    },
    /** Fires the earliest timer and lets the renewal's promises settle. */
    async fire() {
      const t = pending.shift();
      if (!t) throw new Error("no timer pending");
      t.cb();
      await flush();
      return t.ms;
    },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

/** A monotonic clock the test moves by hand. */
function fakeClock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}
const NOW = 1_000;

describe("QuickSight session renewal", () => {
  it("renews before the end and restores the sheet and parameters the user had", async () => {
    const timers = fakeTimers();
    const embeds: { url: string; state: FrameState | undefined; frame: FakeFrame }[] = [];
    const embed = vi.fn(async (url: string, state: FrameState | undefined) => {
      // A re-embedded frame opens where the state says (as the SDK's initialSheetId/parameters do).
      const frame = new FakeFrame(url, state?.sheetId ?? "sheet-1", state?.parameters ?? []);
      embeds.push({ url, state, frame });
      return frame;
    });
    let n = 1;
    const fetchAddress = vi.fn(async () => ({ embedUrl: `https://qs/embed/${++n}`, expiresInMs: 60 * 60_000 }));
    const onError = vi.fn();
    const onRenewed = vi.fn();

    const session = startEmbedSession(
      { embedUrl: "https://qs/embed/1", expiresInMs: 15 * 60_000 },
      {
        embed,
        fetchAddress,
        onError,
        onRenewed,
        now: fakeClock(NOW).now,
        setTimer: timers.setTimer,
        clearTimer: timers.clearTimer,
      },
    );
    await flush();
    expect(embeds).toHaveLength(1);
    expect(embeds[0].state).toBeUndefined();
    expect(timers.pending.map((t) => t.ms)).toEqual([13 * 60_000]);

    // The user moves to another sheet and sets filters.
    const first = embeds[0].frame;
    first.sheetId = "sheet-3";
    first.parameters = [
      { Name: "Region", Values: ["Sul", "Sudeste"] },
      { Name: "Year", Values: [2024] },
    ];

    await timers.fire();
    expect(fetchAddress).toHaveBeenCalledTimes(1);
    expect(embeds).toHaveLength(2);
    expect(embeds[1].url).toBe("https://qs/embed/2");
    expect(embeds[1].state).toEqual({ sheetId: "sheet-3", parameters: first.parameters });
    expect(session.current()).toBe(embeds[1].frame);
    expect(embeds[1].frame.sheetId).toBe("sheet-3");
    expect(onRenewed).toHaveBeenCalledTimes(1);
    // The next renewal is scheduled from the new session's end.
    expect(timers.pending.map((t) => t.ms)).toEqual([58 * 60_000]);
    expect(onError).not.toHaveBeenCalled();
    session.stop();
    expect(timers.pending).toEqual([]);
  });

  it("retries a failed renewal and reports after the last attempt, keeping the current frame", async () => {
    const timers = fakeTimers();
    const embed = vi.fn(async (url: string) => new FakeFrame(url, "s", []));
    const fetchAddress = vi.fn(async () => {
      throw new Error("network down");
    });
    const onError = vi.fn();
    const session = startEmbedSession(
      { embedUrl: "https://qs/1", expiresInMs: 10 * 60_000 },
      {
        embed,
        fetchAddress,
        onError,
        now: fakeClock(NOW).now,
        setTimer: timers.setTimer,
        clearTimer: timers.clearTimer,
        retryMs: 1000,
        maxAttempts: 3,
      },
    );
    await flush();
    const first = session.current();
    await timers.fire();
    expect(timers.pending.map((t) => t.ms)).toEqual([1000]);
    await timers.fire();
    await timers.fire();
    expect(fetchAddress).toHaveBeenCalledTimes(3);
    expect(onError).toHaveBeenCalledTimes(1);
    expect((onError.mock.calls[0][0] as Error).message).toBe("network down");
    expect(timers.pending).toEqual([]);
    expect(session.current()).toBe(first);
  });

  it("reports a failed first embed", async () => {
    const onError = vi.fn();
    startEmbedSession(
      { embedUrl: "https://qs/1", expiresInMs: 10 * 60_000 },
      {
        embed: async () => Promise.reject(new Error("frame refused")),
        fetchAddress: vi.fn(),
        onError,
        now: fakeClock(NOW).now,
      },
    );
    await flush();
    expect(onError).toHaveBeenCalledWith(new Error("frame refused"));
  });

  it("captures what it can from a frame that fails to answer", async () => {
    const frame: EmbeddedFrame = {
      getSelectedSheetId: () => Promise.reject(new Error("timeout")),
      getParameters: async () => [{ Name: "A", Values: ["1"] }],
    };
    expect(await captureFrameState(frame)).toEqual({ parameters: [{ Name: "A", Values: ["1"] }] });
  });

  it("schedules the renewal a margin before the end, never in the past", () => {
    expect(renewalDelayMs(600 * 60_000, 0)).toBe(598 * 60_000);
    expect(renewalDelayMs(600 * 60_000, 30_000)).toBe(598 * 60_000 - 30_000);
    expect(renewalDelayMs(60_000, 0)).toBe(5_000);
    expect(renewalDelayMs(Number.NaN, 0)).toBe(5_000);
  });

  it("counts the lifetime from the address's arrival, whatever the browser's wall clock says", async () => {
    // The browser's calendar clock is three hours off; renewal must not read it at all.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2020, 0, 1) });
    try {
      const timers = fakeTimers();
      const clock = fakeClock();
      const embedDelays: number[] = [20_000, 45_000];
      const embed = vi.fn(async (url: string) => {
        // Building the frame takes a while; that time is part of the session already.
        clock.advance(embedDelays.shift() ?? 0);
        return new FakeFrame(url, "s", []);
      });
      const fetchAddress = vi.fn(async () => {
        clock.advance(3_000);
        return { embedUrl: "https://qs/2", expiresInMs: 30 * 60_000 };
      });
      const receivedAt = clock.now();
      clock.advance(7_000); // the SDK loads before the first embed starts
      startEmbedSession(
        { embedUrl: "https://qs/1", expiresInMs: 15 * 60_000 },
        {
          embed,
          fetchAddress,
          onError: vi.fn(),
          now: clock.now,
          initialReceivedAt: receivedAt,
          setTimer: timers.setTimer,
          clearTimer: timers.clearTimer,
        },
      );
      await flush();
      // 15 min − 2 min margin − (7 s loading the SDK + 20 s embedding).
      expect(timers.pending.map((t) => t.ms)).toEqual([13 * 60_000 - 27_000]);
      vi.setSystemTime(Date.UTC(2031, 5, 1));
      await timers.fire();
      // 30 min − 2 min margin − 45 s embedding after the new address arrived (the 3 s fetch came before).
      expect(timers.pending.map((t) => t.ms)).toEqual([28 * 60_000 - 45_000]);
    } finally {
      vi.useRealTimers();
    }
  });
});
