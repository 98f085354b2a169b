import type { JobStatusKind } from "./job-row";
import { jobTexts } from "./texts";

const LABELS: Record<JobStatusKind, string> = {
  success: jobTexts.iconSuccess,
  partial: jobTexts.iconPartial,
  "in-progress": jobTexts.iconInProgress,
  error: jobTexts.iconError,
};

/**
 * Success / partial / in-progress / error icon with its text alternative. The drawing is the stylesheet's (a coloured disc
 * with a white glyph, jobs.css), so a 40-row page does not repeat an SVG in every row.
 */
export function JobStatusIcon({ kind }: { kind: JobStatusKind }) {
  return <span className={`job-icon job-icon--${kind}`} role="img" aria-label={LABELS[kind]} />;
}
