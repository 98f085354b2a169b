import { type CSSProperties, useEffect, useState } from "react";
import type { Toast } from "~/shared/toast.server";
import { uiTexts } from "./texts";
import "./toaster.css";

const AUTO_DISMISS_MS = 6000;

/** The style that makes an element hide itself after `ms` without JavaScript (with the `timed-hide` class). */
export function hideAfter(ms: number): CSSProperties {
  return { "--hide-after": `${ms}ms` } as CSSProperties;
}

/** How long a toast stays: its own `durationMs` (the upload message of spec 000 §9 asks for 5 s), else 6 s. */
export function toastDismissMs(toast: Pick<Toast, "durationMs">): number {
  return toast.durationMs ?? AUTO_DISMISS_MS;
}

/**
 * Shows the one-time toast handed over by the root loader. A new toast (new id) replaces the
 * current one; each disappears after a few seconds or when closed.
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const [visible, setVisible] = useState<Toast[]>(toast ? [toast] : []);

  useEffect(() => {
    if (!toast) return;
    setVisible((current) => (current.some((t) => t.id === toast.id) ? current : [...current, toast]));
    const timer = setTimeout(
      () => setVisible((current) => current.filter((t) => t.id !== toast.id)),
      toastDismissMs(toast),
    );
    return () => clearTimeout(timer);
  }, [toast]);

  return (
    <section className="toaster" aria-label={uiTexts.notifications} aria-live="polite">
      {visible.map((t) => (
        <div
          key={t.id}
          // A toast with its own duration also hides without JavaScript (CSS animation, same delay).
          className={`toast toast--${t.type}${t.durationMs ? " timed-hide" : ""}`}
          style={t.durationMs ? hideAfter(t.durationMs) : undefined}
          role={t.type === "error" ? "alert" : "status"}
          data-toast-type={t.type}
          data-toast-id={t.id}
        >
          <div className="toast__text">
            {t.title ? <p className="toast__title">{t.title}</p> : null}
            <p className="toast__description">{t.description}</p>
          </div>
          <button
            type="button"
            className="toast__close"
            aria-label={uiTexts.closeNotice}
            onClick={() => setVisible((current) => current.filter((x) => x.id !== t.id))}
          >
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
