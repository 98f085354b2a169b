import type { ReactNode } from "react";

export type AlertTone = "success" | "error" | "info" | "warning";

/** An inline notice. Errors and warnings are announced at once; the rest politely. */
export function Alert({
  tone = "info",
  title,
  children,
}: {
  tone?: AlertTone;
  title?: ReactNode;
  children: ReactNode;
}) {
  const urgent = tone === "error" || tone === "warning";
  return (
    <div className={`alert alert--${tone}`} role={urgent ? "alert" : "status"}>
      {title ? <p className="alert__title">{title}</p> : null}
      <div className="alert__body">{children}</div>
    </div>
  );
}
