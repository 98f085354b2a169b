import { lazy, type ReactElement, type ReactNode, Suspense, useContext } from "react";

/**
 * The portal's dialog. Radix (focus trap, Escape, aria) is loaded on demand: a page fetches its code when a dialog
 * first opens, so a page load that shows none fetches none. Pages that must show a dialog before the code is there (a
 * URL-driven one, or without JavaScript) render their own static markup as `fallback` (see PageDialog). Controlled
 * (`open` + `onOpenChange`) or uncontrolled with a `trigger`.
 */
import { DialogCloseContext, type DialogProps } from "./dialog-context";

export { DialogCloseContext, type DialogProps } from "./dialog-context";

const RadixDialogImpl = lazy(() => import("./dialog-radix"));

export function Dialog({ fallback = null, ...props }: DialogProps & { fallback?: ReactNode }) {
  // A closed dialog without a trigger renders nothing, on the server and in the browser alike: no lazy boundary then
  // waits to hydrate, which an update from the page would reach first (React error 421, "received an update before
  // it finished hydrating").
  if (props.open === false && !props.trigger) return null;
  return (
    <Suspense fallback={fallback}>
      <RadixDialogImpl {...props} />
    </Suspense>
  );
}

/** Closes the surrounding Dialog; wrap a button with it (`asChild`). */
export function DialogClose({ asChild, children }: { asChild?: boolean; children: ReactElement }) {
  const Close = useContext(DialogCloseContext);
  return Close ? <Close asChild={asChild}>{children}</Close> : children;
}
