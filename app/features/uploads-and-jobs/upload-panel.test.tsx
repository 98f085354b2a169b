import type { ReactElement } from "react";
import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import type { FileTarget } from "~/models/files.fields";
import { NAV_LABELS } from "~/navigation";
import { jobTexts, uploadScreenTexts as t, uploadTargetTexts as targetTexts } from "./texts";
import type { UploadItem } from "./upload-list";
import { UploadPanel } from "./upload-panel";
import { UploadTable } from "./upload-table";

/** The manual upload as the server renders it, and the upload list's rows as the browser tests find them. */

async function render(element: ReactElement) {
  return renderAt("/captura/manual", element);
}

const file = {} as File;
const item = (name: string, more: Partial<UploadItem>): UploadItem => ({
  id: name,
  file,
  name,
  progress: 0,
  estimatedTime: null,
  startAt: 0,
  error: null,
  successUploaded: false,
  status: "uploading",
  ...more,
});

describe("UploadPanel", () => {
  it("posts the files itself without JavaScript, the load type first, and lists nothing yet", async () => {
    const html = await render(
      <UploadPanel
        store="local"
        extensions={["csv", "xlsx"]}
        maxBytes={1024}
        clientName="demo"
        initialError="COD.2"
        targets={["data", "explorer"]}
      />,
    );
    expect(html).toMatch(/<form method="post" enctype="multipart\/form-data" action="\/api\/upload"/i);
    expect(html.indexOf('type="radio"')).toBeLessThan(html.indexOf('type="file"'));
    expect(html).toContain('accept=".csv,.xlsx"');
    expect(html).toContain(`<button type="submit" class="button button--primary">${t.send}</button>`);
    expect(html).toContain('class="timed-hide"');
    expect(html).toContain('<table class="upload-table">');
    expect(html).toContain(`<td class="data-table__empty" colSpan="5">${t.empty}</td>`);
    expect(html).toContain(`href="/captura/processando">${NAV_LABELS.processing}</a>`);
  });
});

describe("UploadTable", () => {
  it("names each row by its file, with the transfer's and the job's state in words", async () => {
    const targets = new Map<string, FileTarget>([["a.csv", "explorer"]]);
    const html = await render(
      <UploadTable
        items={[
          item("a.csv", { progress: 40, estimatedTime: 12 }),
          item("b.csv", { progress: 100, status: "finished", job: { state: "refused", message: "1 linha OK, 0 NOK" } }),
          item("d.txt", { status: "failed", error: "COD.2", errorDetail: "extensão" }),
          item("c.csv", {
            progress: 100,
            status: "finished",
            job: { state: "partial", message: "2 linhas OK, 1 NOK", refusedRows: 1 },
          }),
        ]}
        targetOf={(i) => targets.get(i.name)}
        onRetry={() => undefined}
        onRemove={() => undefined}
      />,
    );
    expect(html).toMatch(/<tr data-row-id="a.csv" data-upload-name="a.csv" data-status="uploading">/);
    expect(html).toContain(
      `<th scope="row" class="upload-table__name">a.csv<span class="upload-table__target">${targetTexts.ofItem(targetTexts.options.explorer.label)}</span></th>`,
    );
    expect(html).toContain('<span class="upload-table__percent">40%</span>');
    expect(html).toMatch(/<td class="upload-table__eta">[^<—]+<\/td>/);
    expect(html).toMatch(/data-upload-name="b.csv" data-status="finished" data-job="refused"/);
    expect(html).toContain(`<span class="upload-state upload-state--refused">${jobTexts.stateRefused}</span>`);
    expect(html).toContain('<span class="upload-table__job">1 linha OK, 0 NOK</span>');
    // A job that refused some rows ended as the others did (Finalizado), with its refused rows beside the word.
    expect(html).toContain(
      `<span class="upload-state upload-state--partial">${t.stateFinished}</span><span class="upload-state__refused">${jobTexts.refusedRows(1)}</span>`,
    );
    expect(html).not.toContain("Concluído com recusas");
    expect(html).toContain(`<span class="upload-state upload-state--failed">${t.stateFailed}</span>`);
    expect(html).toContain(`aria-label="${t.retryOf("d.txt")}"`);
    expect(html.match(new RegExp(t.remove, "g"))?.length).toBeGreaterThanOrEqual(3);
    expect(html).not.toContain("data-table__footer");
  });
});
