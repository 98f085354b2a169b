import { serveBoundedThread } from "./bounded-thread-worker.server";

/**
 * A worker module for bounded-thread.test.ts (started through bounded-thread-worker.fixture-dev.mjs): with `n`, it
 * reports progress once and answers n × 10; with `batches`, it emits each batch in turn and answers null.
 */
export type FixtureWorkerData = { n?: number; batches?: unknown[][] };

serveBoundedThread<FixtureWorkerData>(async (_buffer, { n, batches }, { progress, emit }) => {
  if (batches) {
    for (const batch of batches) await emit(batch);
    return null;
  }
  progress(1, 1);
  return (n ?? 0) * 10;
});
