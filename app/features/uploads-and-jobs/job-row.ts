/** A job as the lists show it (computed on the server; plain data for the browser). */
export type JobStatusKind = "success" | "partial" | "in-progress" | "error";

export type JobRow = {
  id: string;
  name: string;
  user: string;
  /** Already formatted ('DD MMM YY HH:mm:ss', pt-BR, in the portal's zone). */
  date: string;
  progress: number;
  /**
   * The state in words (jobStateText): "Completed" at progress 100 and "In progress" before (spec 000 §4) while the
   * status is 0, also when the job refused some rows (they are said beside it: `refusedRows`); a job that ended with
   * another status is "Recusado" (a refusal of the file) or "Falhou" (a failure "Tentar novamente" may get past),
   * whatever its progress: colour alone is not a status (WCAG 1.4.1).
   */
  state: string;
  /** Rows a Completed job refused, shown beside its state (0: none, or the job did not complete). */
  refusedRows: number;
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
  /**
   * "Baixar linhas recusadas para corrigir": the refused rows of a template's file as an XLSX in its layout, for the
   * viewers who may download its NOK rows (fix-rows.server.ts); absent or null otherwise.
   */
  fixRowsHref?: string | null;
};

/**
 * The words of a job's state: see JobRow.state. The screens give no `partial` word (a job that refused rows is
 * Completed, its rows said beside it); the API's `outcome` gives one to tell such a job apart.
 */
export function jobStateText<Word extends string>(
  job: { status: number; progress: number; retryable: boolean; nokRows: number },
  words: { completed: Word; partial?: Word; inProgress: Word; refused: Word; failed: Word },
): Word {
  if (job.status !== 0) return job.retryable ? words.failed : words.refused;
  if (job.progress < 100) return words.inProgress;
  return job.nokRows > 0 && words.partial !== undefined ? words.partial : words.completed;
}

/**
 * Status 0 is ok: success when complete, partial when complete with rows refused, in progress otherwise. Any other
 * status is an error.
 */
export function jobStatusKind(status: number, progress: number, nokRows: number): JobStatusKind {
  if (status !== 0) return "error";
  if (progress < 100) return "in-progress";
  return nokRows > 0 ? "partial" : "success";
}
