import { useEffect, useState } from "react";
import { messages } from "~/messages";
import type { Toast } from "~/utils/toast.server";

const AUTO_DISMISS_MS = 6000;

/**
 * Shows the one-time toast handed over by the root loader. A new toast (new id) replaces the
 * current one; each disappears after a few seconds or when closed.
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const [visible, setVisible] = useState<Toast[]>(toast ? [toast] : []);

  useEffect(() => {
    if (!toast) return;
    setVisible((current) => (current.some((t) => t.id === toast.id) ? current : [...current, toast]));
    const timer = setTimeout(() => setVisible((current) => current.filter((t) => t.id !== toast.id)), AUTO_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  return (
    <section className="toaster" aria-label={messages.notifications} aria-live="polite">
      {visible.map((t) => (
        <div key={t.id} className={`toast toast--${t.type}`} role={t.type === "error" ? "alert" : "status"} data-toast-type={t.type}>
          <div className="toast__text">
            {t.title ? <p className="toast__title">{t.title}</p> : null}
            <p className="toast__description">{t.description}</p>
          </div>
          <button
            type="button"
            className="toast__close"
            aria-label={messages.closeNotice}
            onClick={() => setVisible((current) => current.filter((x) => x.id !== t.id))}
          >
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
