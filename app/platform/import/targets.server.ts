import { FILE_STATUS_UNREADABLE, type JobClaim } from "~/models/file-jobs.server";
import { ingestExplorerDocument } from "./documents.server";
import { ingestReportBundle } from "./report-bundle.server";
import { startTargetJob, type TargetJobOptions, type TargetJobOutcome } from "./target-job.server";
import { uploadRightsTexts } from "./texts";
import { grantUpload } from "./upload-rights.server";

/**
 * The worker's dispatch on the file's "Tipo de carga": explorer documents and report packages have jobs of
 * their own, each loaded only by those its upload target admits (upload-rights.server.ts); data spreadsheets (null
 * here) go on to the templates in ingest.server.ts, which ask the same rule once they recognise the template.
 */
export async function ingestNonDataTarget(
  claim: JobClaim,
  options: TargetJobOptions,
): Promise<TargetJobOutcome | null> {
  if (claim.target !== "explorer" && claim.target !== "reports") return null;
  const label = claim.target === "explorer" ? uploadRightsTexts.explorerLabel : uploadRightsTexts.reportsLabel;
  const grant = await grantUpload({ email: claim.user, operator: claim.operator }, claim.target, label);
  if (!grant.ok) return (await startTargetJob(claim, options)).finish(FILE_STATUS_UNREADABLE, grant.message);
  return claim.target === "explorer" ? ingestExplorerDocument(claim, options) : ingestReportBundle(claim, options);
}
