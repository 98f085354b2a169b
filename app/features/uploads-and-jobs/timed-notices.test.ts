import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTimedNotices, type Notice, UPLOAD_MESSAGE_MS } from "./timed-notices";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

let n = 0;
const newId = () => `n${++n}`;

describe("upload messages", () => {
  it("last exactly 5 seconds", () => {
    expect(UPLOAD_MESSAGE_MS).toBe(5000);
    const shown: Notice[][] = [];
    const notices = createTimedNotices({ onChange: (list) => shown.push(list), newId });
    notices.push("success", "Upload concluído: a.csv.");
    expect(notices.current().map((x) => x.text)).toEqual(["Upload concluído: a.csv."]);
    vi.advanceTimersByTime(UPLOAD_MESSAGE_MS - 1);
    expect(notices.current()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(notices.current()).toEqual([]);
    expect(shown.at(-1)).toEqual([]);
  });

  it("hide one by one, each 5 seconds after it was shown, success or failure", () => {
    const notices = createTimedNotices({ onChange: () => undefined, newId });
    notices.push("success", "primeiro");
    vi.advanceTimersByTime(2000);
    notices.push("error", "segundo");
    vi.advanceTimersByTime(3000);
    expect(notices.current().map((x) => [x.tone, x.text])).toEqual([["error", "segundo"]]);
    vi.advanceTimersByTime(1999);
    expect(notices.current()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(notices.current()).toEqual([]);
  });

  it("stop their timers when the page goes away", () => {
    const changes = vi.fn();
    const notices = createTimedNotices({ onChange: changes, newId });
    notices.push("info", "x");
    notices.dispose();
    vi.advanceTimersByTime(UPLOAD_MESSAGE_MS * 2);
    expect(changes).toHaveBeenCalledTimes(1);
  });
});
