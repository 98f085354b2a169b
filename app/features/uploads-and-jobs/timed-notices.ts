/** How long an upload message stays (spec 000 §9: it shows for 5 seconds, then hides). */
export const UPLOAD_MESSAGE_MS = 5000;

export type NoticeTone = "success" | "error" | "info" | "warning";
export type Notice = { id: string; tone: NoticeTone; text: string };

/**
 * The upload screen's messages: each one hides by itself UPLOAD_MESSAGE_MS after it was shown,
 * independently of the others. Kept apart from React so its timing can be tested with fake timers.
 */
export function createTimedNotices(options: {
  onChange: (notices: Notice[]) => void;
  newId: () => string;
  durationMs?: number;
}) {
  const durationMs = options.durationMs ?? UPLOAD_MESSAGE_MS;
  let notices: Notice[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const set = (next: Notice[]) => {
    notices = next;
    options.onChange(next);
  };
  return {
    push(tone: NoticeTone, text: string): string {
      const id = options.newId();
      set([...notices, { id, tone, text }]);
      const timer = setTimeout(() => {
        timers.delete(timer);
        set(notices.filter((n) => n.id !== id));
      }, durationMs);
      timers.add(timer);
      return id;
    },
    current: (): readonly Notice[] => notices,
    /** Stops the pending timers (the page is leaving). */
    dispose() {
      timers.forEach(clearTimeout);
      timers.clear();
    },
  };
}
