import type { ViewerContent } from "~/features/reports-and-financial/documents-viewer.server";
import { jobTexts, reportsTexts as t } from "~/messages";
import { Alert } from "~/shared/ui/alert";
import { DocumentViewer } from "./document-viewer";
import { DownloadButton, useDownloadOutcome } from "./download-button";

/** A viewer page (report or statement): its title, a download of the file, and the converted document. */
export function ViewerPage({
  name,
  content,
  error,
  inlineUrl,
  downloadFields,
  documentError,
}: {
  name: string;
  content: ViewerContent | null;
  error: string | null;
  inlineUrl: string;
  downloadFields: Record<string, string>;
  /** The download failure of a post without JavaScript (the action's answer). */
  documentError: string | null;
}) {
  const downloadError = useDownloadOutcome("viewer-download", documentError);
  return (
    <section className="report-page">
      <h1>{t.viewerTitle(name)}</h1>
      <div className="report-actions">
        <DownloadButton
          fetcherKey="viewer-download"
          fields={downloadFields}
          label={jobTexts.downloadOf(name)}
          text={jobTexts.download}
          className="button button--primary"
        />
      </div>
      <div className="report-page__alerts">{downloadError ? <Alert tone="error">{downloadError}</Alert> : null}</div>
      <DocumentViewer content={content} error={error} inlineUrl={inlineUrl} />
    </section>
  );
}
