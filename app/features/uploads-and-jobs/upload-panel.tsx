import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { messages } from "~/messages";
import type { FileTarget } from "~/models/files.fields";
import { NAV_LABELS } from "~/navigation-labels";
import { Alert } from "~/shared/ui/alert";
import { hideAfter } from "~/shared/ui/toaster";
import { useHydrated } from "~/shared/ui/use-hydrated";
import { uploadScreenTexts as t } from "./texts";
import { UPLOAD_MESSAGE_MS } from "./timed-notices";
import { UploadDropzone } from "./upload-dropzone";
import type { UploadFailureCode } from "./upload-list";
import { UploadTable } from "./upload-table";
import type { StoreKind } from "./upload-transport";
import { useNotices, useUploads } from "./use-uploads";
import "./jobs.css";
import "./uploads.css";

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

/** The failure a plain form upload came back with, shown for UPLOAD_MESSAGE_MS. */
function useInitialError(initialError: UploadFailureCode | null) {
  const [shown, setShown] = useState(initialError !== null);
  useEffect(() => {
    if (!initialError) return;
    setShown(true);
    const timer = setTimeout(() => setShown(false), UPLOAD_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [initialError]);
  return shown ? initialError : null;
}

/** The manual upload (/captura/manual): the messages, where files are picked or dropped, and the list of sent files. */
export function UploadPanel({ store, extensions, maxBytes, clientName, initialError, targets }: UploadPanelProps) {
  const hydrated = useHydrated();
  const shownError = useInitialError(initialError);
  const { notices, push } = useNotices();
  const uploads = useUploads({ store, extensions, clientName }, push);
  return (
    <div className="upload-panel">
      <div className="upload-panel__notices">
        {shownError ? (
          // Rendered by the server: the CSS animation hides it after 5 s even without JavaScript.
          <div className="timed-hide" style={hideAfter(UPLOAD_MESSAGE_MS)}>
            <Alert tone="error">{messages.uploadFailure(shownError)}</Alert>
          </div>
        ) : null}
        {notices.map((n) => (
          <Alert key={n.id} tone={n.tone}>
            {n.text}
          </Alert>
        ))}
      </div>
      <UploadDropzone
        extensions={extensions}
        maxBytes={maxBytes}
        targets={targets}
        target={uploads.target}
        onTarget={uploads.setTarget}
        onFiles={uploads.add}
        hydrated={hydrated}
      />
      <UploadTable
        items={uploads.items}
        targetOf={uploads.targetOf}
        onRetry={uploads.retry}
        onRemove={uploads.remove}
      />
      <p className="upload-panel__follow">
        {t.followJobs} <Link to="/captura/processando">{NAV_LABELS.processing}</Link>.
      </p>
    </div>
  );
}
