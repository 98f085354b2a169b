/** Background work in slices of a few milliseconds (a start's load, a compaction): the server answers in between. */

/** Ends a background load when the server stops before it finished. */
export const STOPPED = new Error("stopped while loading");

function yieldNow(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Yields when the current slice of a background job has run for more than a few milliseconds. */
let sliceStart = performance.now();
export function sliceIsOver(): boolean {
  return performance.now() - sliceStart >= 8;
}
export async function pauseSlice(): Promise<void> {
  if (!sliceIsOver()) return;
  await yieldNow();
  sliceStart = performance.now();
}
