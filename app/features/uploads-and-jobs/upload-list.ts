/**
 * The upload list of /captura/manual as pure state transitions (spec 000 §3 "Upload item on screen",
 * §4 "Uploads"): added files enter as uploading with progress 0, a name already listed is not added
 * again, retry resets progress and error, remove drops the item.
 */

export type UploadFailureCode = "COD.2" | "COD.3";
export type UploadStatus = "uploading" | "finished" | "failed";

/**
 * What became of a sent file's job (the transfer's "finished" says only that the bytes arrived): waiting or running,
 * then done (status 0), refused (the file was not accepted) or failed (processing broke off; it may be retried from the
 * job lists). The list asks the server while a job has not ended.
 */
export type UploadJobState = "waiting" | "running" | "done" | "partial" | "refused" | "failed";
/** `refusedRows`: on a "partial" job, the rows it refused (said beside its state). */
export type UploadJob = { state: UploadJobState; message: string; refusedRows?: number };

/** A job's record as the server answers it (file-jobs.server.ts JobOutcome). */
export type JobOutcomeView = {
  id: string;
  status: number;
  progress: number;
  message: string;
  retryable: boolean;
  /** Rows the ended job refused: a job done with some is "partial". */
  nokRows: number;
};

export function uploadJobOf(outcome: JobOutcomeView): UploadJob {
  const state: UploadJobState =
    outcome.status !== 0
      ? outcome.retryable
        ? "failed"
        : "refused"
      : outcome.progress >= 100
        ? outcome.nokRows > 0
          ? "partial"
          : "done"
        : outcome.progress > 0
          ? "running"
          : "waiting";
  return state === "partial"
    ? { state, message: outcome.message, refusedRows: outcome.nokRows }
    : { state, message: outcome.message };
}

export function jobEnded(job: UploadJob | undefined): boolean {
  return (
    job !== undefined &&
    (job.state === "done" || job.state === "partial" || job.state === "refused" || job.state === "failed")
  );
}

export type UploadItem = {
  id: string;
  file: File;
  name: string;
  progress: number;
  /** Seconds left, or null before the first progress event. */
  estimatedTime: number | null;
  startAt: number;
  error: UploadFailureCode | null;
  /** Why it failed, in the server's words, when it said. */
  errorDetail?: string;
  successUploaded: boolean;
  status: UploadStatus;
  /** The job the server registered for the file (its id), once the transfer finished. */
  fileId?: string;
  /** The job's state as last asked. */
  job?: UploadJob;
};

export function addFiles(
  items: readonly UploadItem[],
  files: Iterable<File>,
  options: { now: number; newId: () => string },
): { items: UploadItem[]; added: UploadItem[]; skipped: string[] } {
  const names = new Set(items.map((i) => i.name));
  const added: UploadItem[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    if (names.has(file.name)) {
      skipped.push(file.name);
      continue;
    }
    names.add(file.name);
    added.push({
      id: options.newId(),
      file,
      name: file.name,
      progress: 0,
      estimatedTime: null,
      startAt: options.now,
      error: null,
      successUploaded: false,
      status: "uploading",
    });
  }
  return { items: [...items, ...added], added, skipped };
}

function update(items: UploadItem[], id: string, change: (item: UploadItem) => UploadItem): UploadItem[] {
  const index = items.findIndex((i) => i.id === id);
  if (index < 0) return items;
  const next = items.slice();
  next[index] = change(items[index]);
  return next;
}

export function estimateSecondsLeft(p: { startAt: number; now: number; loaded: number; total: number }): number | null {
  if (p.loaded >= p.total) return 0;
  const elapsed = p.now - p.startAt;
  if (p.loaded <= 0 || elapsed <= 0) return null;
  const bytesPerMs = p.loaded / elapsed;
  return (p.total - p.loaded) / bytesPerMs / 1000;
}

/** Bytes sent; the percentage stops at 99 until the server has stored and registered the file. */
export function markProgress(
  items: UploadItem[],
  id: string,
  p: { loaded: number; total: number; now: number },
): UploadItem[] {
  return update(items, id, (item) => {
    if (item.status !== "uploading") return item;
    const ratio = p.total > 0 ? p.loaded / p.total : 0;
    return {
      ...item,
      progress: Math.min(99, Math.max(0, Math.floor(ratio * 100))),
      estimatedTime: estimateSecondsLeft({ startAt: item.startAt, now: p.now, loaded: p.loaded, total: p.total }),
    };
  });
}

export function markFinished(items: UploadItem[], id: string, fileId?: string): UploadItem[] {
  return update(items, id, (item) => ({
    ...item,
    status: "finished",
    progress: 100,
    estimatedTime: 0,
    successUploaded: true,
    error: null,
    fileId,
    job: fileId ? { state: "waiting", message: "" } : undefined,
  }));
}

/** The sent files whose jobs have not ended: the ids to ask about. */
export function pendingJobIds(items: readonly UploadItem[]): string[] {
  return items.filter((i) => i.status === "finished" && i.fileId && !jobEnded(i.job)).map((i) => i.fileId!);
}

/** The jobs' states as the server answered; an item whose job was not in the answer keeps what it had. */
export function applyJobOutcomes(items: UploadItem[], outcomes: readonly JobOutcomeView[]): UploadItem[] {
  if (outcomes.length === 0) return items;
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  let changed = false;
  const next = items.map((item) => {
    const outcome = item.fileId ? byId.get(item.fileId) : undefined;
    if (!outcome || item.status !== "finished") return item;
    const job = uploadJobOf(outcome);
    if (
      item.job &&
      item.job.state === job.state &&
      item.job.message === job.message &&
      item.job.refusedRows === job.refusedRows
    )
      return item;
    changed = true;
    return { ...item, job };
  });
  return changed ? next : items;
}

export function markFailed(items: UploadItem[], id: string, code: UploadFailureCode, detail?: string): UploadItem[] {
  return update(items, id, (item) => ({
    ...item,
    status: "failed",
    error: code,
    errorDetail: detail,
    estimatedTime: null,
    successUploaded: false,
  }));
}

export function resetForRetry(items: UploadItem[], id: string, now: number): UploadItem[] {
  return update(items, id, (item) => ({
    ...item,
    status: "uploading",
    progress: 0,
    estimatedTime: null,
    error: null,
    errorDetail: undefined,
    startAt: now,
    fileId: undefined,
    job: undefined,
  }));
}

export function removeItem(items: UploadItem[], id: string): UploadItem[] {
  return items.filter((i) => i.id !== id);
}

export function extensionAllowed(name: string, extensions: readonly string[]): boolean {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || dot === name.length - 1) return false;
  return extensions.includes(name.slice(dot + 1).toLowerCase());
}

export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "—";
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
