import type { ViewerContent } from "~/features/reports-and-financial/documents-viewer.server";
import { reportsTexts as t } from "~/messages";
import { Alert } from "~/shared/ui/alert";

const MAX_ROWS = 1_000;
const MAX_COLUMNS = 40;

/**
 * The portal's online viewer body: an XLSX as one HTML table per sheet, a DOCX as the HTML mammoth made of
 * it (links limited to http(s), mailto and anchors; the CSP runs no script it could carry), a PDF inline in a
 * frame of the portal's own address.
 */
export function DocumentViewer({
  content,
  error,
  inlineUrl,
}: {
  content: ViewerContent | null;
  error: string | null;
  inlineUrl: string;
}) {
  if (error || !content) return <Alert tone="error">{error ?? t.viewerFailed}</Alert>;
  if (content.kind === "unsupported") return <Alert tone="info">{t.viewerUnsupported}</Alert>;
  if (content.kind === "pdf") {
    return (
      <>
        <iframe className="viewer-pdf" src={inlineUrl} title="PDF" />
        <p className="report-muted">
          {t.viewerPdfFallback} <a href={inlineUrl}>{t.viewerPdfOpen}</a>
        </p>
      </>
    );
  }
  if (content.kind === "html")
    // biome-ignore lint/security/noDangerouslySetInnerHtml: mammoth's HTML of a .docx, links made safe, CSP on
    return <article className="viewer-docx" dangerouslySetInnerHTML={{ __html: content.html }} />;
  return (
    <div>
      {content.sheets.map((sheet, s) => (
        <section key={s} aria-label={sheet.name}>
          <h2>{sheet.name}</h2>
          {sheet.truncated ? <Alert tone="info">{t.viewerTruncated(MAX_ROWS, MAX_COLUMNS)}</Alert> : null}
          <div className="viewer-sheet">
            <table>
              <caption className="visually-hidden">{sheet.name}</caption>
              <tbody>
                {sheet.rows.map((cells, r) => (
                  <tr key={r}>
                    <th scope="row">{r + 1}</th>
                    {cells.map((cell, c) => (
                      <td key={c} className={/^-?[\d.]+(,\d+)?$/.test(cell) ? "report-num" : undefined}>
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </div>
  );
}
