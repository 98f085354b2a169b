import { useId, type ReactNode } from "react";
import { Dialog } from "~/components/ui/dialog";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * A dialog whose open state belongs to the page (a URL parameter or the action's answer), so every flow
 * also works without JavaScript: before hydration — and forever when scripts are off — the same content is
 * rendered as static markup in the page; once hydrated, the Radix dialog takes over (focus trap, Escape).
 * Radix renders nothing on the server, which is why the static form exists.
 */
export function PageDialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  dismissible = true,
}: {
  open: boolean;
  /** Called when the user dismisses the dialog (Escape, outside click, ×); usually navigates the parameter away. */
  onClose?: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  dismissible?: boolean;
}) {
  const hydrated = useHydrated();
  const titleId = useId();
  const descriptionId = useId();
  if (!open) return null;
  if (!hydrated) {
    return (
      <div className="page-dialog--static">
        <div className="dialog__overlay" />
        <div
          className="dialog__content"
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={description ? descriptionId : undefined}
        >
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          {description ? (
            <p id={descriptionId} className="dialog__description">
              {description}
            </p>
          ) : null}
          {children}
          {footer ? <div className="dialog__footer">{footer}</div> : null}
        </div>
      </div>
    );
  }
  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next) onClose?.();
      }}
      title={title}
      description={description}
      footer={footer}
      dismissible={dismissible}
    >
      {children}
    </Dialog>
  );
}
