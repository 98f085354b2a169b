import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

export const JOB_POLL_INTERVAL_MS = 3000;

/**
 * Revalidates the page's loaders every `intervalMs` while `active` is true and the tab is visible
 * (no full reload). A hidden tab pauses; it catches up at once when shown again.
 */
export function useRevalidateWhile(active: boolean, intervalMs = JOB_POLL_INTERVAL_MS) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      if (timer === undefined) timer = setInterval(() => revalidate(), intervalMs);
    };
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        revalidate();
        start();
      } else stop();
    };
    if (document.visibilityState === "visible") start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [active, intervalMs, revalidate]);
  return state;
}
