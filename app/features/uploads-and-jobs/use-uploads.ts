import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { messages } from "~/messages";
import { DEFAULT_FILE_TARGET, type FileTarget } from "~/models/files.fields";
import { uploadScreenTexts as t } from "./texts";
import { createTimedNotices, type Notice } from "./timed-notices";
import {
  addFiles,
  applyJobOutcomes,
  extensionAllowed,
  type JobOutcomeView,
  markFailed,
  markFinished,
  markProgress,
  pendingJobIds,
  removeItem,
  resetForRetry,
  type UploadItem,
} from "./upload-list";
import { type StoreKind, type UploadHandle, uploadToLocalStore, uploadToS3 } from "./upload-transport";
import { JOB_POLL_INTERVAL_MS } from "./use-polling";

let sequence = 0;
const newId = () => `upload-${Date.now().toString(36)}-${++sequence}`;

/** The page that answers the jobs' states (its loader's `jobOutcomes` for `?jobs=<id>,<id>`). */
export const UPLOAD_JOBS_URL = "/captura/manual";

/**
 * Follows the jobs of the files this list sent until each has ended: their states are asked of the page's loader
 * every JOB_POLL_INTERVAL_MS while the tab is visible (the transfer's "Finalizado" says nothing about the file).
 */
function useJobOutcomes(items: readonly UploadItem[], onOutcomes: (outcomes: readonly JobOutcomeView[]) => void) {
  const fetcher = useFetcher<{ jobOutcomes?: JobOutcomeView[] }>();
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const pending = pendingJobIds(items).join(",");
  useEffect(() => {
    if (!pending) return;
    const ask = () => {
      if (document.visibilityState !== "visible" || fetcherRef.current.state !== "idle") return;
      fetcherRef.current.load(`${UPLOAD_JOBS_URL}?${new URLSearchParams({ jobs: pending })}`);
    };
    const first = setTimeout(ask, 500);
    const timer = setInterval(ask, JOB_POLL_INTERVAL_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [pending]);
  const outcomes = fetcher.data?.jobOutcomes;
  useEffect(() => {
    if (outcomes) onOutcomes(outcomes);
  }, [outcomes, onOutcomes]);
}

/** Timed messages: each hides by itself after UPLOAD_MESSAGE_MS (see timed-notices.ts). */
export function useNotices() {
  const [notices, setNotices] = useState<Notice[]>([]);
  const queue = useRef<ReturnType<typeof createTimedNotices> | null>(null);
  queue.current ??= createTimedNotices({ onChange: setNotices, newId });
  useEffect(() => {
    const pending = queue.current;
    return () => pending?.dispose();
  }, []);
  return { notices, push: queue.current.push };
}

type Push = ReturnType<typeof useNotices>["push"];

/** Leaving the page cancels what is still being sent. */
function useTransfers() {
  const handles = useRef(new Map<string, UploadHandle>());
  useEffect(() => {
    const active = handles.current;
    return () => {
      active.forEach((h) => {
        h.abort();
      });
      active.clear();
    };
  }, []);
  return handles;
}

export type UploadOptions = { store: StoreKind; extensions: readonly string[]; clientName: string };

/**
 * The upload list: each file picked or dropped is sent on its own (with progress), then its job is followed; a failed
 * one can be retried, and removing one still being sent cancels it. Each file keeps the "Tipo de carga" it was sent
 * with (a retry sends the same).
 */
export function useUploads({ store, extensions, clientName }: UploadOptions, push: Push) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const handles = useTransfers();
  const [target, setTarget] = useState<FileTarget>(DEFAULT_FILE_TARGET);
  const targetRef = useRef(target);
  targetRef.current = target;
  const itemTargets = useRef(new Map<string, FileTarget>());
  const itemsRef = useRef(items);
  itemsRef.current = items;
  useJobOutcomes(
    items,
    useCallback(
      (outcomes: readonly JobOutcomeView[]) => setItems((current) => applyJobOutcomes(current, outcomes)),
      [],
    ),
  );

  const start = useCallback(
    (item: Pick<UploadItem, "id" | "file" | "name">) => {
      if (!extensionAllowed(item.name, extensions)) {
        setItems((current) => markFailed(current, item.id, "COD.2", t.extensionRefused(item.name)));
        push("error", messages.uploadFailure("COD.2"));
        return;
      }
      const onProgress = (loaded: number, total: number) =>
        setItems((current) => markProgress(current, item.id, { loaded, total, now: Date.now() }));
      const itemTarget = itemTargets.current.get(item.id) ?? targetRef.current;
      itemTargets.current.set(item.id, itemTarget);
      const handle =
        store === "s3"
          ? uploadToS3(item.file, onProgress, clientName, undefined, itemTarget)
          : uploadToLocalStore(item.file, onProgress, undefined, itemTarget);
      handles.current.set(item.id, handle);
      void handle.promise.then((outcome) => {
        // A removed or restarted item is no longer this attempt's business.
        if (handles.current.get(item.id) !== handle) return;
        handles.current.delete(item.id);
        if (outcome.ok) {
          setItems((current) => markFinished(current, item.id, outcome.fileId));
          push("success", messages.uploaded([item.name]));
        } else if (!outcome.aborted) {
          setItems((current) => markFailed(current, item.id, outcome.code, outcome.detail));
          push("error", messages.uploadFailure(outcome.code));
        }
      });
    },
    [clientName, extensions, push, store, handles],
  );

  const add = useCallback(
    (files: FileList | File[] | null) => {
      if (!files || files.length === 0) return;
      // Decided against the latest list (the ref also covers two picks before React re-renders).
      const outcome = addFiles(itemsRef.current, Array.from(files), { now: Date.now(), newId });
      itemsRef.current = outcome.items;
      setItems((current) => [...current, ...outcome.added.filter((a) => !current.some((c) => c.name === a.name))]);
      if (outcome.skipped.length > 0) push("info", t.duplicates(outcome.skipped));
      outcome.added.forEach(start);
    },
    [push, start],
  );

  const retry = (item: UploadItem) => {
    handles.current.get(item.id)?.abort();
    handles.current.delete(item.id);
    setItems((current) => resetForRetry(current, item.id, Date.now()));
    start(item);
  };

  const remove = (item: UploadItem) => {
    const handle = handles.current.get(item.id);
    handles.current.delete(item.id);
    handle?.abort(); // removing a file that is still being sent cancels it
    itemTargets.current.delete(item.id);
    itemsRef.current = removeItem(itemsRef.current, item.id);
    setItems((current) => removeItem(current, item.id));
  };

  const targetOf = (item: UploadItem) => itemTargets.current.get(item.id);
  return { items, add, retry, remove, target, setTarget, targetOf };
}
