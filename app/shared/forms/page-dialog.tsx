import { type ReactNode, useId } from "react";
import { Dialog } from "~/shared/ui/dialog";
import { useHydrated } from "~/shared/ui/use-hydrated";
import { useCarriedFields } from "./carried-fields";

/**
 * A dialog whose open state belongs to the page (a URL parameter or the action's answer), so every flow
 * also works without JavaScript: before hydration — and forever when scripts are off — the same content is
 * rendered as static markup in the page; once hydrated and Radix's code has loaded, the Radix dialog takes over
 * (focus trap, Escape). Radix renders nothing on the server, which is why the static form exists.
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
  const carry = useCarriedFields();
  if (!open) return null;
  // Before hydration, without JavaScript, and while Radix's code is still loading: the same content as plain markup.
  const staticDialog = (
    <div className="page-dialog--static">
      <div className="dialog__overlay" />
      <div
        ref={carry}
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
  if (!hydrated) return staticDialog;
  return (
    <Dialog
      fallback={staticDialog}
      open
      onOpenChange={(next) => {
        if (!next) onClose?.();
      }}
      title={title}
      description={description}
      footer={footer}
      dismissible={dismissible}
    >
      <div ref={carry} className="dialog__fields">
        {children}
      </div>
    </Dialog>
  );
}
