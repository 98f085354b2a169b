import type { JobStatusKind } from "./job-row";
import { jobTexts } from "~/messages";

const LABELS: Record<JobStatusKind, string> = {
  success: jobTexts.iconSuccess,
  "in-progress": jobTexts.iconInProgress,
  error: jobTexts.iconError,
};

/** Success / in-progress / error icon with its text alternative. */
export function JobStatusIcon({ kind }: { kind: JobStatusKind }) {
  const label = LABELS[kind];
  return (
    <svg className={`job-icon job-icon--${kind}`} role="img" aria-label={label} viewBox="0 0 20 20" width="18" height="18" data-kind={kind}>
      <title>{label}</title>
      <circle cx="10" cy="10" r="9" fill="currentColor" />
      {kind === "success" ? <path d="M5.5 10.5l3 3 6-7" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" /> : null}
      {kind === "in-progress" ? <path d="M10 5v5l3.5 2" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" /> : null}
      {kind === "error" ? <path d="M6.5 6.5l7 7M13.5 6.5l-7 7" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" /> : null}
    </svg>
  );
}
