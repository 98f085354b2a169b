import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { useHydrated } from "~/shared/ui/use-hydrated";
import type { DownloadResult } from "./download.server";
import { HiddenFields } from "./fields";

/**
 * A download form (POST intent=download) whose answer is a short-lived link: with JavaScript the page follows
 * it (the file downloads, the page stays) and shows a failure through `onResult`; without, the browser posts
 * the form and is redirected to the file or gets the page back with the alert.
 */
export function DownloadButton({
  fields,
  label,
  text,
  fetcherKey,
  action,
  className = "button button--secondary button--small",
}: {
  fields: Record<string, string>;
  label: string;
  text: string;
  fetcherKey: string;
  action?: string;
  className?: string;
}) {
  const fetcher = useFetcher<DownloadResult>({ key: fetcherKey });
  const hydrated = useHydrated();
  return (
    <fetcher.Form method="post" action={action} className="report-inline-form">
      <HiddenFields fields={{ intent: "download", ...fields, mode: hydrated ? "fetch" : "document" }} />
      <button type="submit" className={className} aria-label={label} disabled={fetcher.state !== "idle"}>
        {text}
      </button>
    </fetcher.Form>
  );
}

/** Follows the link of the page's last successful download and returns the last failure text, if any. */
export function useDownloadOutcome(fetcherKey: string, documentError: string | null | undefined): string | null {
  const fetcher = useFetcher<DownloadResult>({ key: fetcherKey });
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) window.location.assign(fetcher.data.url);
  }, [fetcher.state, fetcher.data]);
  const fetchError = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return fetchError ?? (fetcher.data ? null : (documentError ?? null));
}
