import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { messages } from "~/messages";
import type { JobRow } from "./job-row";
import { type JobListData, JobTable, RetryAll } from "./job-table";
import { jobTexts } from "./texts";

const row = (over: Partial<JobRow>): JobRow => ({
  id: "id-1",
  name: "a.csv",
  user: "owner@x.test",
  date: "05 mar 24 11:07:09",
  progress: 100,
  state: messages.jobCompleted,
  status: 0,
  kind: "success",
  message: "5 linhas OK, 2 NOK",
  agent: "worker@host",
  canRetry: false,
  nokRowsHref: null,
  nokRowsDownload: false,
  refusedRows: 0,
  ...over,
});

async function render(rows: JobRow[], showUser = true) {
  const data: JobListData = { rows, total: rows.length, page: 1, pageSize: 20, pageSizes: [20, 40] };
  return renderAt("/jobs/executados", <JobTable data={data} caption="Jobs" showUser={showUser} />);
}

describe("JobTable", () => {
  it("cuts a long name to 15 characters plus dots and keeps the full name in a tooltip", async () => {
    const html = await render([row({ name: "product_master_2024_final.csv" })]);
    expect(html).toContain(">product_master_...</span>");
    expect(html).toMatch(
      /aria-describedby="([^"]+)"[^>]*>product_master_\.\.\.<\/span><span role="tooltip" id="\1" class="tooltip">product_master_2024_final\.csv<\/span>/,
    );
  });

  it("cuts a message longer than 45 characters to 42 plus dots, with the full text in the tooltip", async () => {
    const message = "Layout não reconhecido: o cabeçalho não corresponde a nenhum modelo.";
    const html = await render([row({ message, kind: "error", status: 2 })]);
    expect(html).toContain(`>${message.slice(0, 42)}...</span>`);
    expect(html).toContain(`class="tooltip">${message}</span>`);
    const short = await render([row({ message: "x".repeat(45) })]);
    expect(short).toContain(`>${"x".repeat(45)}</span>`);
    expect(short).not.toContain('role="tooltip"');
  });

  it("shows the state text and an icon with a text alternative for each kind", async () => {
    const html = await render([
      row({ id: "ok", kind: "success" }),
      row({ id: "run", kind: "in-progress", progress: 40, state: messages.jobInProgress }),
      row({ id: "bad", kind: "error", status: 2 }),
    ]);
    expect(html).toContain(`role="img" aria-label="${jobTexts.iconSuccess}"`);
    expect(html).toContain(`role="img" aria-label="${jobTexts.iconInProgress}"`);
    expect(html).toContain(`role="img" aria-label="${jobTexts.iconError}"`);
    expect(html).toContain(`<span>${messages.jobInProgress}</span>`);
    expect(html).toContain("40%");
  });

  it("says Completed for a job that refused rows, with how many beside it, and keeps its own icon", async () => {
    const html = await render([
      row({ id: "part", name: "p.csv", kind: "partial", refusedRows: 1 }),
      row({ id: "many", name: "m.csv", kind: "partial", refusedRows: 1234 }),
      row({ id: "clean", name: "c.csv" }),
    ]);
    expect(html).toContain(
      `<span class="job-state" data-kind="partial"><span class="job-icon job-icon--partial" role="img" aria-label="${jobTexts.iconPartial}"></span><span>${messages.jobCompleted}</span><span class="job-state__refused">${jobTexts.refusedRows(1)}</span></span>`,
    );
    expect(jobTexts.refusedRows(1)).toBe("1 linha recusada");
    expect(html).toContain(`<span class="job-state__refused">${jobTexts.refusedRows(1234)}</span>`);
    expect(jobTexts.refusedRows(1234)).toBe("1.234 linhas recusadas");
    expect(html.match(/job-state__refused/g)).toHaveLength(2);
    expect(html).not.toContain("Concluído com recusas");
  });

  it("has a Retry form only on rows the viewer may retry, and the user column only when asked", async () => {
    const html = await render(
      [row({ id: "r1", name: "mine.csv", kind: "error", status: 2, canRetry: true }), row({ id: "r2", name: "x.csv" })],
      false,
    );
    expect(html.match(/name="intent" value="retry"/g)).toHaveLength(1);
    expect(html).toContain('name="fileId" value="r1"');
    expect(html).toContain(`aria-label="${jobTexts.retry}: mine.csv"`);
    expect(html).not.toContain(`>${jobTexts.columnUser}</th>`);
    expect(await render([row({})], true)).toContain(`>${jobTexts.columnUser}</th>`);
    expect(html).toContain(messages.itemsPerPage);
  });

  it("links a file with rejected rows to them in the repository", async () => {
    const href = "/repo/master-data?base=nok&collection=product_master_nok&file=2030%2F05%2Fa.csv";
    const html = await render([row({ nokRowsHref: href }), row({ id: "other", name: "b.csv" })]);
    expect(html).toContain(`href="${href.replace(/&/g, "&amp;")}"`);
    expect(html).toContain(`aria-label="${jobTexts.nokRowsOf("a.csv")}"`);
    expect(html).not.toContain(`aria-label="${jobTexts.nokRowsOf("b.csv")}"`);
  });

  it("links a refused all-or-nothing upload to the CSV of its refused rows with a plain download link", async () => {
    const href = "/captura/processando/nok/0123456789abcdef01234567";
    const html = await render([row({ kind: "error", status: 4, nokRowsHref: href, nokRowsDownload: true })]);
    expect(html).toContain(`<a href="${href}" download=""`);
    expect(html).toContain(`aria-label="${jobTexts.nokRowsDownloadOf("a.csv")}">${jobTexts.nokRows}</a>`);
  });
});

async function renderRetryAll(props: Parameters<typeof RetryAll>[0]) {
  return renderAt("/jobs/executados?page=2", <RetryAll {...props} />);
}

describe("RetryAll (Tentar novamente todos)", () => {
  it("offers the button only when the list holds failed jobs the viewer may retry", async () => {
    const html = await renderRetryAll({ count: 7, confirm: null, batch: null });
    expect(html).toContain(`>${jobTexts.retryAll}</button>`);
    expect(html).toContain('name="intent" value="retry-all"');
    expect(html).not.toContain('role="dialog"');
    expect(await renderRetryAll({ count: 0, confirm: null, batch: null })).not.toContain(jobTexts.retryAll);
  });

  it("without JavaScript, shows the server's question naming the count, with a form that confirms it", async () => {
    const html = await renderRetryAll({
      count: 7,
      confirm: { count: 7, question: jobTexts.retryAllQuestion(7) },
      batch: null,
    });
    expect(html).toContain('role="dialog"');
    expect(html).toContain("Tentar novamente 7 trabalhos com falha?");
    expect(html).toContain('name="confirm" value="1"');
    expect(html).toContain('name="count" value="7"');
    expect(html).toContain(`>${jobTexts.retryAllConfirm}</button>`);
    // Cancelar goes back to the list as it was (its page kept).
    expect(html).toMatch(/href="\/jobs\/executados\?page=2"[^>]*>Cancelar</);
  });

  it("shows the batch's progress from its jobs' states", async () => {
    const text = jobTexts.retryAllProgress(3, 7, 0);
    const html = await renderRetryAll({ count: 0, confirm: null, batch: { total: 7, finished: 3, failed: 0, text } });
    expect(text).toBe("Tentar novamente todos: 3 de 7 concluídos.");
    expect(html).toContain('role="status"');
    expect(html).toContain(text);
  });
});

describe("JobTable: the refused rows to fix", () => {
  it("links a job with refused rows to its XLSX, a plain download that works without JavaScript", async () => {
    const html = await render([
      row({
        id: "f1",
        name: "produtos.csv",
        nokRowsHref: "/captura/processando/nok/f1",
        nokRowsDownload: true,
        fixRowsHref: "/captura/processando/corrigir/f1",
      }),
    ]);
    expect(html).toMatch(
      /<a href="\/captura\/processando\/corrigir\/f1" download=""[^>]*>Baixar linhas recusadas para corrigir<\/a>/,
    );
    expect(html).toContain('aria-label="Baixar linhas recusadas de produtos.csv para corrigir (XLSX)"');
    expect(await render([row({})])).not.toContain(jobTexts.fixRows);
  });
});
