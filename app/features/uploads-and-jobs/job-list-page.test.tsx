import type { ComponentType } from "react";
import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { messages } from "~/messages";
import { NAV_LABELS } from "~/navigation";
import ProcessingPage from "~/routes/captura.processando";
import ExecutedJobsPage from "~/routes/jobs.executados";
import type { JobRow } from "./job-row";
import { jobTexts } from "./texts";

/** /captura/processando and /jobs/executados: one page, the uploader's own jobs or everyone's. */

const row: JobRow = {
  id: "id-1",
  name: "a.csv",
  user: "owner@x.test",
  date: "05 mar 24 11:07:09",
  progress: 100,
  state: messages.jobCompleted,
  status: 2,
  kind: "error",
  message: "Layout não reconhecido",
  agent: "worker@host",
  canRetry: true,
  nokRowsHref: null,
  nokRowsDownload: false,
  refusedRows: 0,
};

const loaded = {
  rows: [row],
  total: 1,
  page: 1,
  pageSize: 20,
  pageSizes: [20, 40],
  retryAllCount: 1,
  retryBatch: null,
  polling: false,
};

async function render(Page: ComponentType, path: string) {
  return renderAt(path, [{ id: "page", path: "*", loader: () => loaded, Component: Page }]);
}

describe("the job list pages", () => {
  it("/captura/processando: the uploader's own jobs, without the user column", async () => {
    const html = await render(ProcessingPage, "/captura/processando");
    expect(html).toContain(`<h1>${NAV_LABELS.processing}</h1>`);
    expect(html).toContain(jobTexts.ownJobsNote);
    expect(html).toContain(`<caption class="visually-hidden">${NAV_LABELS.processing}</caption>`);
    expect(html).not.toContain(">owner@x.test<");
    expect(html).toContain(jobTexts.retryAll);
  });

  it("/jobs/executados: everyone's jobs, with who sent each", async () => {
    const html = await render(ExecutedJobsPage, "/jobs/executados");
    expect(html).toContain(`<h1>${NAV_LABELS.executedJobsList}</h1>`);
    expect(html).toContain(jobTexts.allJobsNote);
    expect(html).toContain(`<caption class="visually-hidden">${NAV_LABELS.executedJobsList}</caption>`);
    expect(html).toContain("owner@x.test");
    expect(html).toContain(jobTexts.retryAll);
  });
});
