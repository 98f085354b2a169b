import { dashboardTexts } from "./texts";

/** What the embedding SDK hands its onMessage / onChange listeners (only the fields read here). */
export type FrameEvent = { eventName?: string; eventLevel?: string; message?: unknown };

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, 300) : null;

/**
 * The alert text for a failure the embedded frame reports, or null when the event is no failure:
 * ERROR_OCCURRED (its `errorCode`, and a message when the SDK gives one) and frame-level ERROR changes
 * (e.g. FRAME_NOT_CREATED), so the user sees which error it was rather than a generic title.
 */
export function frameErrorText(event: FrameEvent): string | null {
  const message = event.message && typeof event.message === "object" ? (event.message as Record<string, unknown>) : {};
  if (event.eventName === "ERROR_OCCURRED") {
    return dashboardTexts.dashboardFrameError(
      text(message.errorCode),
      text(message.errorMessage) ?? text(message.message),
    );
  }
  if (event.eventLevel === "ERROR") {
    return dashboardTexts.dashboardFrameError(
      text(event.eventName),
      text(message.errorMessage) ??
        text(message.message) ??
        (typeof event.message === "string" ? text(event.message) : null),
    );
  }
  return null;
}
