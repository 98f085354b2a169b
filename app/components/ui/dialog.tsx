import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { messages } from "~/messages";

/**
 * The portal's dialog: Radix handles focus trapping, Escape and aria; this adds the look.
 * Controlled (`open` + `onOpenChange`) or uncontrolled with a `trigger`.
 */
export function Dialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  children,
  footer,
  dismissible = true,
}: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** false: Escape and clicks outside do not close it (e.g. the session-expired notice). */
  dismissible?: boolean;
}) {
  const block = (event: Event) => {
    if (!dismissible) event.preventDefault();
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog__overlay" />
        <RadixDialog.Content
          className="dialog__content"
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onInteractOutside={block}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
          {description ? <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description> : null}
          {children}
          {footer ? <div className="dialog__footer">{footer}</div> : null}
          {dismissible ? (
            <RadixDialog.Close className="dialog__close" aria-label={messages.close}>
              ×
            </RadixDialog.Close>
          ) : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Closes the surrounding Dialog; wrap a button with it. */
export const DialogClose = RadixDialog.Close;
