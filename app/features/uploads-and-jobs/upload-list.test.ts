import { describe, expect, it } from "vitest";
import {
  addFiles,
  applyJobOutcomes,
  estimateSecondsLeft,
  extensionAllowed,
  formatEta,
  markFailed,
  markFinished,
  markProgress,
  pendingJobIds,
  removeItem,
  resetForRetry,
  type UploadItem,
} from "./upload-list";

const file = (name: string, size = 10) => new File(["x".repeat(size)], name);
let n = 0;
const newId = () => `id-${++n}`;

describe("addFiles", () => {
  it("adds picked files as uploading with progress 0", () => {
    const { items, added } = addFiles([], [file("a.csv"), file("b.csv")], { now: 1000, newId });
    expect(added).toHaveLength(2);
    expect(items.map((i) => [i.name, i.status, i.progress, i.error, i.startAt])).toEqual([
      ["a.csv", "uploading", 0, null, 1000],
      ["b.csv", "uploading", 0, null, 1000],
    ]);
  });
  it("keeps the files already listed and skips a name that is already there (or twice in one pick)", () => {
    const first = addFiles([], [file("a.csv")], { now: 0, newId }).items;
    const { items, added, skipped } = addFiles(first, [file("a.csv", 99), file("c.csv"), file("c.csv")], {
      now: 5,
      newId,
    });
    expect(items.map((i) => i.name)).toEqual(["a.csv", "c.csv"]);
    expect(items[0]).toBe(first[0]);
    expect(added.map((i) => i.name)).toEqual(["c.csv"]);
    expect(skipped).toEqual(["a.csv", "c.csv"]);
  });
});

describe("progress, finish, failure, retry and removal", () => {
  const start = (): UploadItem[] => addFiles([], [file("a.csv", 1000), file("b.csv")], { now: 0, newId }).items;

  it("tracks the percentage and the estimated time, and holds 99% until the server confirms", () => {
    const items = start();
    const id = items[0].id;
    const half = markProgress(items, id, { loaded: 500, total: 1000, now: 10_000 });
    expect(half[0].progress).toBe(50);
    expect(half[0].estimatedTime).toBe(10);
    const sent = markProgress(half, id, { loaded: 1000, total: 1000, now: 20_000 });
    expect(sent[0].progress).toBe(99);
    const done = markFinished(sent, id);
    expect(done[0]).toMatchObject({ status: "finished", progress: 100, successUploaded: true, estimatedTime: 0 });
    expect(done[1]).toBe(items[1]);
  });
  it("records the failure code; retry resets progress and error; remove drops the item", () => {
    const items = start();
    const id = items[0].id;
    const failed = markFailed(markProgress(items, id, { loaded: 300, total: 1000, now: 1000 }), id, "COD.3");
    expect(failed[0]).toMatchObject({ status: "failed", error: "COD.3", successUploaded: false });
    const retried = resetForRetry(failed, id, 7777);
    expect(retried[0]).toMatchObject({
      status: "uploading",
      progress: 0,
      error: null,
      estimatedTime: null,
      startAt: 7777,
    });
    expect(removeItem(retried, id).map((i) => i.name)).toEqual(["b.csv"]);
  });
  it("ignores updates for an item that was removed meanwhile", () => {
    const items = start();
    const gone = removeItem(items, items[0].id);
    expect(markProgress(gone, items[0].id, { loaded: 1, total: 2, now: 1 })).toBe(gone);
    expect(markFinished(gone, items[0].id)).toBe(gone);
  });
});

describe("estimates and limits", () => {
  it("estimates the seconds left from the average speed so far", () => {
    expect(estimateSecondsLeft({ startAt: 0, now: 4000, loaded: 1, total: 5 })).toBe(16);
    expect(estimateSecondsLeft({ startAt: 0, now: 0, loaded: 0, total: 5 })).toBeNull();
    expect(estimateSecondsLeft({ startAt: 0, now: 1000, loaded: 5, total: 5 })).toBe(0);
  });
  it("formats the estimate", () => {
    expect(formatEta(null)).toBe("—");
    expect(formatEta(0)).toBe("0 s");
    expect(formatEta(42.2)).toBe("43 s");
    expect(formatEta(125)).toBe("2 min 5 s");
    expect(formatEta(3 * 3600 + 60)).toBe("3 h 1 min");
  });
  it("checks the extension against the allow-list, case-insensitively", () => {
    expect(extensionAllowed("Base.CSV", ["csv", "xlsx"])).toBe(true);
    expect(extensionAllowed("photo.png", ["csv", "xlsx"])).toBe(false);
    expect(extensionAllowed("noextension", ["csv"])).toBe(false);
  });
});

describe("the job of a sent file", () => {
  const ID = "0123456789abcdef01234567";
  const sent = () => markFinished(addFiles([], [file("a.csv")], { now: 0, newId: () => "u1" }).items, "u1", ID);
  const outcome = (over: Partial<{ status: number; progress: number; message: string; retryable: boolean }>) => ({
    id: ID,
    status: 0,
    progress: 0,
    message: "",
    retryable: false,
    nokRows: 0,
    ...over,
  });

  it("follows the job until it ends, then says what it said: refused, failed or done", () => {
    expect(sent()[0].job).toEqual({ state: "waiting", message: "" });
    expect(pendingJobIds(sent())).toEqual([ID]);
    const running = applyJobOutcomes(sent(), [outcome({ progress: 40, message: "Processando: 10 linhas lidas" })]);
    expect(running[0].job).toEqual({ state: "running", message: "Processando: 10 linhas lidas" });
    const refused = applyJobOutcomes(running, [
      outcome({ status: 2, progress: 100, message: "Layout não reconhecido" }),
    ]);
    expect(refused[0].job).toEqual({ state: "refused", message: "Layout não reconhecido" });
    expect(pendingJobIds(refused)).toEqual([]);
    expect(applyJobOutcomes(sent(), [outcome({ status: 3, progress: 100, retryable: true })])[0].job?.state).toBe(
      "failed",
    );
    expect(applyJobOutcomes(sent(), [outcome({ progress: 100, message: "1 linha OK, 0 NOK" })])[0].job).toEqual({
      state: "done",
      message: "1 linha OK, 0 NOK",
    });
  });

  it("tells a job that ended with rows refused from one that ended clean", () => {
    expect(
      applyJobOutcomes(sent(), [{ ...outcome({ progress: 100, message: "2 linhas OK, 1 NOK" }), nokRows: 1 }])[0].job,
    ).toEqual({ state: "partial", message: "2 linhas OK, 1 NOK", refusedRows: 1 });
    expect(pendingJobIds(applyJobOutcomes(sent(), [{ ...outcome({ progress: 100 }), nokRows: 1 }]))).toEqual([]);
  });

  it("keeps an item whose job the answer left out, and forgets the job on a new transfer", () => {
    const items = sent();
    expect(applyJobOutcomes(items, [{ ...outcome({}), id: "ffffffffffffffffffffffff" }])).toBe(items);
    expect(resetForRetry(items, "u1", 5)[0]).toMatchObject({ fileId: undefined, job: undefined });
  });
});
