import { Form, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { Alert } from "~/shared/ui/alert";
import { excelTexts } from "./texts";
import "./panel.css";

/** What a grid's loader sends for its Excel round trip: where to export and import, and the last import's outcome. */
export type ExcelPanelData = {
  exportHref: string;
  importAction: string;
  canImport: boolean;
  report: { summary: string; href: string | null } | null;
  /** A large edited export applied by a job (`?excelJob=<id>`): its progress, or how it ended when not with a report. */
  job?: { running: boolean; progress: number; message: string } | null;
};

/** While a job runs, the screen asks again every 2 s (with JavaScript; without it, the "Atualizar" link). */
function useJobPolling(running: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 2000);
    return () => window.clearInterval(timer);
  }, [running, revalidator]);
}

/**
 * "Exportar Excel" (a plain link: the download works without JavaScript) and, for those who may edit, the form that
 * sends the edited export back (multipart POST to the grid's Excel route, which answers with a redirect here).
 */
export function ExcelPanel({ excel, busy = false }: { excel: ExcelPanelData; busy?: boolean }) {
  useJobPolling(excel.job?.running ?? false);
  const location = useLocation();
  return (
    <div className="excel-panel">
      <a className="button button--secondary" href={excel.exportHref} download>
        {excelTexts.exportExcel}
      </a>
      {excel.canImport ? (
        <Form
          method="post"
          action={excel.importAction}
          encType="multipart/form-data"
          className="excel-panel__import"
          reloadDocument
        >
          <label htmlFor="excel-import-file">{excelTexts.importExcelFile}</label>
          <input
            id="excel-import-file"
            type="file"
            name="arquivo"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            required
            aria-describedby="excel-import-hint"
          />
          <button type="submit" className="button button--secondary" disabled={busy}>
            {excelTexts.importExcel}
          </button>
          <p id="excel-import-hint" className="excel-panel__hint">
            {excelTexts.importExcelHint}
          </p>
        </Form>
      ) : null}
      {excel.job ? (
        <Alert tone={excel.job.running ? "info" : "error"}>
          <span role="status">{excel.job.message}</span>
          {excel.job.running ? (
            <>
              {" "}
              <progress max={100} value={excel.job.progress} aria-label={excel.job.message} />{" "}
              <a href={`${location.pathname}${location.search}`}>{excelTexts.excelJobRefresh}</a>
            </>
          ) : null}
        </Alert>
      ) : null}
      {excel.report ? (
        <Alert tone="info">
          <span>{excel.report.summary}</span>
          {excel.report.href ? (
            <>
              {" "}
              <a href={excel.report.href} download="conflitos-e-recusas.csv">
                {excelTexts.excelReportDownload}
              </a>
            </>
          ) : null}
        </Alert>
      ) : null}
    </div>
  );
}
