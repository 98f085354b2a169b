/**
 * Renewal of an embedded QuickSight session, kept pure (no SDK, no DOM, injectable timers) so it is
 * unit-tested with a fake frame. A little before the session ends, the current sheet and parameters
 * are read from the frame, a new embed address is fetched and the dashboard is embedded again with
 * that sheet and those parameters, so the user keeps where they were.
 *
 * The server sends how long a session still lasts (`expiresInMs`), never an instant: the deadline is
 * counted from the moment the address arrives on a monotonic clock, so a browser clock that is off by
 * hours renews just as well.
 */

export type FrameParameter = { Name: string; Values: Array<string | number> };

/** What renewal needs from an embedded dashboard (a subset of the SDK's DashboardExperience). */
export interface EmbeddedFrame {
  getSelectedSheetId(): Promise<string>;
  getParameters(): Promise<FrameParameter[]>;
}

export type FrameState = { sheetId?: string; parameters: FrameParameter[] };

export type EmbedAddressLike = { embedUrl: string; expiresInMs: number };

export type RenewalOptions<F extends EmbeddedFrame> = {
  /** Embeds `url`, restoring `state` when given; resolves with the new frame. */
  embed: (url: string, state: FrameState | undefined) => Promise<F>;
  /** Asks the server for a new embed address. */
  fetchAddress: () => Promise<EmbedAddressLike>;
  onError: (error: unknown) => void;
  onRenewed?: (frame: F, state: FrameState) => void;
  /** A monotonic clock in ms (performance.now by default); only differences are used. */
  now?: () => number;
  /** When the first address arrived, on the `now` clock (default: when the session starts). */
  initialReceivedAt?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Renew this long before the session ends. */
  marginMs?: number;
  /** Wait between failed attempts. */
  retryMs?: number;
  maxAttempts?: number;
};

export const RENEWAL_MARGIN_MS = 2 * 60_000;
const MIN_DELAY_MS = 5_000;

/**
 * When to renew a session that lasted `expiresInMs` when its address arrived, `elapsedMs` ago:
 * `marginMs` before it ends, but not sooner than a few seconds.
 */
export function renewalDelayMs(expiresInMs: number, elapsedMs: number, marginMs = RENEWAL_MARGIN_MS): number {
  if (!Number.isFinite(expiresInMs) || !Number.isFinite(elapsedMs)) return MIN_DELAY_MS;
  return Math.max(MIN_DELAY_MS, expiresInMs - elapsedMs - marginMs);
}

/** The frame's sheet and parameters; what cannot be read is left out rather than failing the renewal. */
export async function captureFrameState(frame: EmbeddedFrame): Promise<FrameState> {
  const [sheet, parameters] = await Promise.allSettled([frame.getSelectedSheetId(), frame.getParameters()]);
  const state: FrameState = {
    parameters: parameters.status === "fulfilled" && Array.isArray(parameters.value) ? parameters.value : [],
  };
  if (sheet.status === "fulfilled" && typeof sheet.value === "string" && sheet.value) state.sheetId = sheet.value;
  return state;
}

export type EmbedSession<F> = {
  /** Renews at once (also what the timer calls). */
  renewNow: () => Promise<void>;
  current: () => F | undefined;
  stop: () => void;
};

/** Embeds the first address and keeps the session alive until `stop()`. */
export function startEmbedSession<F extends EmbeddedFrame>(
  initial: EmbedAddressLike,
  options: RenewalOptions<F>,
): EmbedSession<F> {
  const now = options.now ?? (() => performance.now());
  const setTimer = options.setTimer ?? ((cb: () => void, ms: number) => setTimeout(cb, ms));
  const clearTimer = options.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const marginMs = options.marginMs ?? RENEWAL_MARGIN_MS;
  const retryMs = options.retryMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 3;

  let frame: F | undefined;
  let timer: unknown;
  let stopped = false;
  let failures = 0;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer !== undefined) clearTimer(timer);
    timer = setTimer(() => {
      timer = undefined;
      void renewNow();
    }, ms);
  };

  async function renewNow(): Promise<void> {
    if (stopped || !frame) return;
    try {
      const state = await captureFrameState(frame);
      const address = await options.fetchAddress();
      const receivedAt = now();
      if (stopped) return;
      const next = await options.embed(address.embedUrl, state);
      if (stopped) return;
      frame = next;
      failures = 0;
      options.onRenewed?.(next, state);
      schedule(renewalDelayMs(address.expiresInMs, now() - receivedAt, marginMs));
    } catch (error) {
      failures += 1;
      if (failures >= maxAttempts) {
        options.onError(error);
        return;
      }
      schedule(retryMs);
    }
  }

  // Counted from the address's arrival, not from when the frame is ready.
  const initialReceivedAt = options.initialReceivedAt ?? now();
  options
    .embed(initial.embedUrl, undefined)
    .then((first) => {
      if (stopped) return;
      frame = first;
      schedule(renewalDelayMs(initial.expiresInMs, now() - initialReceivedAt, marginMs));
    })
    .catch((error: unknown) => options.onError(error));

  return {
    renewNow,
    current: () => frame,
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimer(timer);
      timer = undefined;
    },
  };
}
