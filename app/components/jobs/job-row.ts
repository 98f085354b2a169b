/** A job as the lists show it (computed on the server; plain data for the browser). */
export type JobStatusKind = "success" | "in-progress" | "error";

export type JobRow = {
  id: string;
  name: string;
  user: string;
  /** Already formatted (' DD MMM YY hh:mm:ss', UTC). */
  date: string;
  progress: number;
  /** "Completed" at progress 100, otherwise "In progress". */
  state: string;
  status: number;
  kind: JobStatusKind;
  message: string;
  agent: string;
  canRetry: boolean;
};

/** Status 0 is ok: success when complete, in progress otherwise. Any other status is an error. */
export function jobStatusKind(status: number, progress: number): JobStatusKind {
  if (status !== 0) return "error";
  return progress >= 100 ? "success" : "in-progress";
}
