/**
 * What the snapshot checker's thread (checksum-worker.ts) and its starter (checksums.ts) share: the thread's data,
 * and where in its progress (a BigInt64Array over `shared`, stored and loaded with Atomics) it writes:
 * [CHECKED] checked up to (a record boundary), [FAILED] the first record that failed (-1: none).
 */
export type ChecksumWorkerData = { file: string; offset: number; shared: SharedArrayBuffer };

export const CHECKED = 0;
export const FAILED = 1;
