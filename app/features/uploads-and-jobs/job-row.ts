/** A job as the lists show it (computed on the server; plain data for the browser). */
export type JobStatusKind = "success" | "in-progress" | "error";

export type JobRow = {
  id: string;
  name: string;
  user: string;
  /** Already formatted ('DD MMM YY HH:mm:ss', pt-BR, in the portal's zone). */
  date: string;
  progress: number;
  /** "Completed" at progress 100, otherwise "In progress". */
  state: string;
  status: number;
  kind: JobStatusKind;
  message: string;
  agent: string;
  canRetry: boolean;
  /**
   * The file's rejected rows, when it has some and the viewer may see them: a spec-000 master-data file's NOK base
   * narrowed to the file (a page), or an all-or-nothing upload's refused rows as a CSV (`nokRowsDownload`).
   */
  nokRowsHref: string | null;
  /** `nokRowsHref` is a file download (a plain link), not a page of the portal. */
  nokRowsDownload: boolean;
};

/** Status 0 is ok: success when complete, in progress otherwise. Any other status is an error. */
export function jobStatusKind(status: number, progress: number): JobStatusKind {
  if (status !== 0) return "error";
  return progress >= 100 ? "success" : "in-progress";
}
