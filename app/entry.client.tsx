import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { preloadDialog } from "~/shared/ui/dialog";

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});

// Dialogs load Radix on demand; fetch it once the page is interactive, so the first dialog opens at once.
const whenIdle = (work: () => void) =>
  "requestIdleCallback" in window ? window.requestIdleCallback(work, { timeout: 2000 }) : setTimeout(work, 200);
whenIdle(preloadDialog);
