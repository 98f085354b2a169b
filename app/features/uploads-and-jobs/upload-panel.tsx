import { Link, useFetcher } from "@remix-run/react";
import { type DragEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { messages, uploadScreenTexts as t, uploadTargetTexts as targetTexts } from "~/messages";
import { DEFAULT_FILE_TARGET, FILE_TARGET_FIELD, type FileTarget, isFileTarget } from "~/models/files.fields";
import { formatSize } from "~/shared/numbers";
import { Alert } from "~/shared/ui/alert";
import { jobTexts } from "./texts";
import { truncateJobMessage } from "./truncate";
import { TruncatedText } from "./truncated-text";
import {
  addFiles,
  applyJobOutcomes,
  extensionAllowed,
  formatEta,
  type JobOutcomeView,
  jobEnded,
  markFailed,
  markFinished,
  markProgress,
  pendingJobIds,
  removeItem,
  resetForRetry,
  type UploadFailureCode,
  type UploadItem,
} from "./upload-list";
import { JOB_POLL_INTERVAL_MS } from "./use-polling";
import "./jobs.css";
import { createTimedNotices, type Notice, UPLOAD_MESSAGE_MS } from "./timed-notices";
import { type StoreKind, type UploadHandle, uploadToLocalStore, uploadToS3 } from "./upload-transport";
import "~/shared/ui/data-table.css";
import "./uploads.css";
import { NAV_LABELS } from "~/navigation";
import { hideAfter } from "~/shared/ui/toaster";
import { useHydrated } from "~/shared/ui/use-hydrated";

export type UploadPanelProps = {
  store: StoreKind;
  extensions: readonly string[];
  maxBytes: number;
  clientName: string;
  /** COD.2 / COD.3 after a plain (no-JavaScript) form upload that failed. */
  initialError: UploadFailureCode | null;
  /** The "Tipo de carga" choices its user may load (data always; explorer documents and report packages by rule). */
  targets: readonly FileTarget[];
};

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
function useNotices() {
  const [notices, setNotices] = useState<Notice[]>([]);
  const queue = useRef<ReturnType<typeof createTimedNotices> | null>(null);
  queue.current ??= createTimedNotices({ onChange: setNotices, newId });
  useEffect(() => {
    const pending = queue.current;
    return () => pending?.dispose();
  }, []);
  return { notices, push: queue.current.push };
}

export function UploadPanel({ store, extensions, maxBytes, clientName, initialError, targets }: UploadPanelProps) {
  const inputId = useId();
  const hintId = useId();
  const targetId = useId();
  const hydrated = useHydrated();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [dragging, setDragging] = useState(false);
  const [showInitialError, setShowInitialError] = useState(initialError !== null);
  const handles = useRef(new Map<string, UploadHandle>());
  // The "Tipo de carga" chosen now, and the one each listed file was sent with (a retry sends the same).
  const [target, setTarget] = useState<FileTarget>(DEFAULT_FILE_TARGET);
  const targetRef = useRef(target);
  targetRef.current = target;
  const itemTargets = useRef(new Map<string, FileTarget>());
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const { notices, push } = useNotices();
  useJobOutcomes(
    items,
    useCallback(
      (outcomes: readonly JobOutcomeView[]) => setItems((current) => applyJobOutcomes(current, outcomes)),
      [],
    ),
  );
  useEffect(() => {
    if (!initialError) return;
    setShowInitialError(true);
    const timer = setTimeout(() => setShowInitialError(false), UPLOAD_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [initialError]);
  // Leaving the page cancels what is still being sent.
  useEffect(() => {
    const active = handles.current;
    return () => {
      active.forEach((h) => {
        h.abort();
      });
      active.clear();
    };
  }, []);

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
    [clientName, extensions, push, store],
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

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer?.files ?? null);
  };

  // A sent file's state is its job's once that ended: refused or failed in words (not only by colour), else finished.
  const stateLabel = (item: UploadItem) => {
    if (item.status === "failed") return t.stateFailed;
    if (item.status !== "finished") return t.stateActive;
    if (item.job?.state === "refused") return jobTexts.stateRefused;
    if (item.job?.state === "failed") return jobTexts.stateFailed;
    return t.stateFinished;
  };
  const jobNote = (item: UploadItem) => {
    if (item.status !== "finished" || !item.job) return null;
    if (!jobEnded(item.job)) return item.job.state === "running" ? t.jobRunning : t.jobWaiting;
    return item.job.message || null;
  };

  return (
    <div className="upload-panel">
      <div className="upload-panel__notices">
        {showInitialError && initialError ? (
          // Rendered by the server: the CSS animation hides it after 5 s even without JavaScript.
          <div className="timed-hide" style={hideAfter(UPLOAD_MESSAGE_MS)}>
            <Alert tone="error">{messages.uploadFailure(initialError)}</Alert>
          </div>
        ) : null}
        {notices.map((n) => (
          <Alert key={n.id} tone={n.tone}>
            {n.text}
          </Alert>
        ))}
      </div>

      {/* Without JavaScript this form posts the files itself; with it, picking or dropping starts the uploads. */}
      <form
        method="post"
        encType="multipart/form-data"
        action="/api/upload"
        className={`upload-drop${dragging ? " upload-drop--active" : ""}`}
        data-testid="upload-dropzone"
        onSubmit={(event) => {
          event.preventDefault();
          const input = event.currentTarget.elements.namedItem("files") as HTMLInputElement | null;
          add(input?.files ?? null);
          if (input) input.value = "";
        }}
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
      >
        {/* First in the form: a plain post sends the choice before the files (a refused value costs no transfer). */}
        <fieldset className="upload-target">
          <legend>{targetTexts.legend}</legend>
          {targets.map((value) => (
            <div key={value} className="upload-target__option">
              <input
                id={`${targetId}-${value}`}
                type="radio"
                name={FILE_TARGET_FIELD}
                value={value}
                checked={target === value}
                aria-describedby={`${targetId}-${value}-hint`}
                onChange={(event) => {
                  if (isFileTarget(event.currentTarget.value)) setTarget(event.currentTarget.value);
                }}
              />
              <label htmlFor={`${targetId}-${value}`} className="upload-target__label">
                {targetTexts.options[value].label}
              </label>
              <span id={`${targetId}-${value}-hint`} className="upload-target__hint">
                {targetTexts.options[value].hint}
              </span>
            </div>
          ))}
          <p className="upload-target__note">{targetTexts.alwaysNote}</p>
        </fieldset>
        <p className="upload-drop__text">{t.dropHere}</p>
        <label htmlFor={inputId} className="upload-drop__label">
          {t.pick}
        </label>
        <input
          id={inputId}
          type="file"
          name="files"
          multiple
          accept={extensions.map((e) => `.${e}`).join(",")}
          aria-describedby={hintId}
          onChange={(event) => {
            if (!hydrated) return;
            add(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
        <p id={hintId} className="upload-drop__hint">
          {t.allowed(extensions, formatSize(maxBytes))}
        </p>
        {hydrated ? null : (
          <button type="submit" className="button button--primary">
            {t.send}
          </button>
        )}
      </form>

      <div className="data-table">
        <div className="data-table__scroll">
          <table className="upload-table">
            <caption className="visually-hidden">{t.tableCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.columnName}</th>
                <th scope="col">{t.columnProgress}</th>
                <th scope="col">{t.columnEta}</th>
                <th scope="col">{t.columnState}</th>
                <th scope="col">
                  <span className="visually-hidden">{t.columnActions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.length === 0 ? (
                <tr>
                  <td className="data-table__empty" colSpan={5}>
                    {t.empty}
                  </td>
                </tr>
              ) : (
                items.map((item) => (
                  <tr key={item.id} data-upload-name={item.name} data-status={item.status} data-job={item.job?.state}>
                    <th scope="row" className="upload-table__name">
                      {item.name}
                      {itemTargets.current.has(item.id) ? (
                        <span className="upload-table__target">
                          {targetTexts.ofItem(targetTexts.options[itemTargets.current.get(item.id)!].label)}
                        </span>
                      ) : null}
                    </th>
                    <td>
                      <span className="job-progress">
                        <progress max={100} value={item.progress} aria-label={t.progressOf(item.name)} />
                        <span className="upload-table__percent">{item.progress}%</span>
                      </span>
                    </td>
                    <td className="upload-table__eta">
                      {item.status === "uploading" ? formatEta(item.estimatedTime) : "—"}
                    </td>
                    <td>
                      <span
                        className={`upload-state upload-state--${item.job && jobEnded(item.job) ? item.job.state : item.status}`}
                      >
                        {stateLabel(item)}
                      </span>
                      {jobNote(item) ? (
                        <TruncatedText
                          full={jobNote(item)!}
                          cut={truncateJobMessage(jobNote(item)!)}
                          className="upload-table__job"
                        />
                      ) : null}
                      {item.error ? (
                        <span className="upload-table__error">
                          {messages.uploadFailure(item.error)}
                          {item.errorDetail ? ` ${item.errorDetail}` : ""}
                        </span>
                      ) : null}
                    </td>
                    <td>
                      <div className="upload-table__actions">
                        {item.status === "failed" ? (
                          <button
                            type="button"
                            className="button button--secondary button--small"
                            aria-label={t.retryOf(item.name)}
                            onClick={() => retry(item)}
                          >
                            {t.retry}
                          </button>
                        ) : null}
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          aria-label={t.removeOf(item.name)}
                          onClick={() => remove(item)}
                        >
                          {t.remove}
                        </button>
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      <p className="upload-panel__follow">
        {t.followJobs} <Link to="/captura/processando">{NAV_LABELS.processing}</Link>.
      </p>
    </div>
  );
}
