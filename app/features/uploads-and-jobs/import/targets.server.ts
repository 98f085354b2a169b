import type { JobClaim } from "~/models/file-jobs.server";
import { ingestExplorerDocument } from "./documents.server";
import { ingestReportBundle } from "./report-bundle.server";
import type { TargetJobOptions, TargetJobOutcome } from "./target-job.server";

/**
 * The worker's dispatch on the file's "Tipo de carga" (issue 30): explorer documents and report packages have jobs of
 * their own; data spreadsheets (null here) go on to the templates in ingest.server.ts.
 */
export async function ingestNonDataTarget(claim: JobClaim, options: TargetJobOptions): Promise<TargetJobOutcome | null> {
  if (claim.target === "explorer") return ingestExplorerDocument(claim, options);
  if (claim.target === "reports") return ingestReportBundle(claim, options);
  return null;
}
