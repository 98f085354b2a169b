import * as RadixDialog from "@radix-ui/react-dialog";
import { DialogCloseContext, type DialogProps } from "./dialog-context";
import { uiTexts } from "./texts";

/**
 * The portal's dialog on Radix: focus trapping, Escape and aria from Radix, the look from dialog.css. Loaded on
 * demand by `Dialog` (app/shared/ui/dialog.tsx), so pages carry Radix's code only once a dialog can open.
 */
export default function RadixDialogImpl({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  children,
  footer,
  dismissible = true,
}: DialogProps) {
  const block = (event: Event) => {
    if (!dismissible) event.preventDefault();
  };
  return (
    <DialogCloseContext.Provider value={RadixDialog.Close}>
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
            {description ? (
              <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description>
            ) : null}
            {children}
            {footer ? <div className="dialog__footer">{footer}</div> : null}
            {dismissible ? (
              <RadixDialog.Close className="dialog__close" aria-label={uiTexts.close}>
                ×
              </RadixDialog.Close>
            ) : null}
          </RadixDialog.Content>
        </RadixDialog.Portal>
      </RadixDialog.Root>
    </DialogCloseContext.Provider>
  );
}
