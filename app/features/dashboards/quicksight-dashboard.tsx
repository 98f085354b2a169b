import { useEffect, useRef, useState } from "react";
import { Alert } from "~/shared/ui/alert";
import { type FrameEvent, frameErrorText } from "./frame-events";
import { type EmbedAddressLike, type FrameState, startEmbedSession } from "./renewal";
import { dashboardTexts } from "./texts";

export type QuickSightEmbed = EmbedAddressLike & { toolbar: { resetDisabled: boolean; undoRedoDisabled: boolean } };

/**
 * The embedded QuickSight dashboard (amazon-quicksight-embedding-sdk, loaded in the browser only).
 * The server already made the embed address with its own credentials; the browser holds none. Renewal
 * fetches `renewUrl` before the session ends and re-embeds on the same sheet with the same parameters.
 * Key this component on the dashboard id so a new id (also via back/forward) embeds afresh.
 */
export function QuickSightDashboard({
  embed,
  renewUrl,
  onLoadingChange,
}: {
  embed: QuickSightEmbed;
  renewUrl: string;
  onLoadingChange?: (loading: boolean) => void;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const loadingRef = useRef(onLoadingChange);
  loadingRef.current = onLoadingChange;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let session: { stop: () => void } | undefined;
    let cancelled = false;
    // The address arrived with this render; renewal counts the session's lifetime from here.
    const receivedAt = performance.now();
    loadingRef.current?.(true);
    const showFrameError = (event: FrameEvent) => {
      const problem = frameErrorText(event);
      if (!problem) return;
      loadingRef.current?.(false);
      setError(problem);
    };

    void (async () => {
      try {
        const sdk = await import("amazon-quicksight-embedding-sdk");
        if (cancelled) return;
        const context = await sdk.createEmbeddingContext();
        const embedFrame = async (url: string, state: FrameState | undefined) => {
          container.replaceChildren();
          return context.embedDashboard(
            {
              url,
              container,
              width: "100%",
              height: "100%",
              withIframePlaceholder: true,
              onChange: (event) => showFrameError(event),
            },
            {
              locale: "pt-BR",
              parameters: state?.parameters,
              sheetOptions: state?.sheetId ? { initialSheetId: state.sheetId } : undefined,
              toolbarOptions: { reset: !embed.toolbar.resetDisabled, undoRedo: !embed.toolbar.undoRedoDisabled },
              onMessage: async (event) => {
                if (event.eventName === "CONTENT_LOADED") loadingRef.current?.(false);
                showFrameError(event);
              },
            },
          );
        };
        session = startEmbedSession(embed, {
          initialReceivedAt: receivedAt,
          embed: embedFrame,
          fetchAddress: async () => {
            const response = await fetch(renewUrl, {
              headers: { Accept: "application/json" },
              credentials: "same-origin",
            });
            const body = (await response.json().catch(() => ({}))) as Partial<EmbedAddressLike> & { error?: string };
            if (!response.ok || !body.embedUrl || typeof body.expiresInMs !== "number")
              throw new Error(body.error ?? dashboardTexts.dashboardRenewFailed);
            return { embedUrl: body.embedUrl, expiresInMs: body.expiresInMs };
          },
          onError: (problem) => {
            loadingRef.current?.(false);
            setError(
              problem instanceof Error && problem.message ? problem.message : dashboardTexts.dashboardRenewFailed,
            );
          },
        });
        if (cancelled) session.stop();
      } catch (problem) {
        loadingRef.current?.(false);
        setError(problem instanceof Error && problem.message ? problem.message : dashboardTexts.dashboardUnexpected);
      }
    })();

    return () => {
      cancelled = true;
      session?.stop();
      container.replaceChildren();
    };
  }, [embed, renewUrl]);

  return (
    <>
      {error ? (
        <Alert tone="error" title={dashboardTexts.dashboardEmbedFailedTitle}>
          {error}
        </Alert>
      ) : null}
      <div className="quicksight-frame" ref={containerRef} />
    </>
  );
}
