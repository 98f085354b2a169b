import { useId } from "react";
import type { Truncated } from "~/features/uploads-and-jobs/truncate";

/**
 * A cut text with the full text in a tooltip: shown on hover and on keyboard focus (CSS only,
 * no JavaScript needed), and tied to the short text with aria-describedby for screen readers.
 */
export function TruncatedText({ full, cut, className }: { full: string; cut: Truncated; className?: string }) {
  const tipId = useId();
  if (!cut.truncated) return <span className={className}>{cut.text}</span>;
  return (
    <span className={`tooltip-anchor${className ? ` ${className}` : ""}`}>
      <span className="tooltip-anchor__text" tabIndex={0} aria-describedby={tipId}>
        {cut.text}
      </span>
      <span role="tooltip" id={tipId} className="tooltip">
        {full}
      </span>
    </span>
  );
}
