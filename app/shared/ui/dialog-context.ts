import { type ComponentType, createContext, type ReactNode } from "react";

/** The props of the portal's dialog and the close button its body may render, shared by the lazy shell and its Radix body. */
export type DialogProps = {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** false: Escape and clicks outside do not close it (e.g. the session-expired notice). */
  dismissible?: boolean;
};

/** Radix's Close, provided by the loaded dialog to what it renders. */
export const DialogCloseContext = createContext<ComponentType<{ asChild?: boolean; children?: ReactNode }> | null>(
  null,
);
