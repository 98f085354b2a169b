import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { messages } from "~/messages";
import { ATTRIBUTES } from "~/models/planning.fields";
import type { ResultRow, ResultsActionData } from "./results.server";
import { type ResultsData, ResultsScreen } from "./results-screen";
import { PLAN_SCREEN, REPORT_SCREEN } from "./screens";
import { planningTexts as t } from "./texts";

/** The results screen as the server renders it, before any JavaScript: every step a link or a plain form. */

const row = (i: number, more: Partial<ResultRow> = {}): ResultRow => ({
  id: `64b7f0c2a1b2c3d4e5f6a7${String(i).padStart(2, "0")}`,
  revision: 1,
  date: "01/01/2026",
  month: "jan/2026",
  sku: `SKU${i}`,
  description: `Produto ${i}`,
  valor: 100 * i,
  preview: null,
  brand: "Alpha",
  channel: "Varejo",
  hero: "Sim",
  abcd: "A",
  plcLocal: "Ativo",
  category: "Cat",
  majorCategory: "Major",
  label: `SKU${i} · Varejo · jan/2026`,
  ...more,
});

const filter = {
  dateStart: null,
  dateEnd: null,
  sku: [],
  chanel: [],
  ...Object.fromEntries(ATTRIBUTES.map((a) => [a.param, []])),
};

const base = {
  filter,
  skuMode: "sku",
  filterQuery: "brand=Alpha",
  period: "jan/2026 – dez/2026",
  summary: [{ label: "Marca", values: "Alpha" }],
  rows: [row(1), row(2)],
  total: 2,
  quantity: "300",
  page: 1,
  pageSize: 20,
  loadedAt: "2026-03-01T12:00:00.000Z",
  canWrite: true,
  batch: null,
  newBatchId: "64b7f0c2a1b2c3d4e5f6a799",
  groupEdit: false,
  groupEditValues: { percent: "", op: "" },
  groupEditErrors: [],
  history: null,
  saved: null,
  excel: null,
  generated: true,
} as unknown as ResultsData;

async function render(data: ResultsData, actionData?: ResultsActionData, screen = PLAN_SCREEN, url = "/ij/plan_edit") {
  const element = <ResultsScreen screen={screen} data={data} actionData={actionData} />;
  return renderAt(url, element);
}

const decode = (html: string) => html.replaceAll("&amp;", "&").replaceAll("&quot;", '"');
const ROW1 = row(1).id;
const ROW2 = row(2).id;

describe("ResultsScreen", () => {
  it("posts each typed quantity with its row's id, revision and loaded value, and links each row's history", async () => {
    const html = decode(await render(base));
    expect(html).toContain(`<input type="hidden" name="rows[0].id" value="${ROW1}"/>`);
    expect(html).toContain('<input type="hidden" name="rows[1].revision" value="1"/>');
    expect(html).toMatch(/<input class="planning-quantity" type="number"[^>]*name="rows\[1\]\.valor"[^>]*value="200"/);
    expect(html).toContain(`href="/ij/plan_edit?history=${ROW1}"`);
    expect(html).toContain('href="/ij/plan_edit?groupEdit=1"');
    // Without JavaScript Save posts, and the server asks for the confirmation.
    expect(html).toContain(`<button type="submit" class="button button--primary">${t.save}</button>`);
    expect(html).toContain('<input type="hidden" name="intent" value="unitario"/>');
    expect(html).toContain(`${messages.reportGenerated} ${t.itemCount(2)}`);
  });

  it("shows the quantities as text to a reader, and No data found for an empty filter", async () => {
    const readOnly = await render({ ...base, canWrite: false }, undefined, REPORT_SCREEN, "/ij/report_preview?page=0");
    expect(readOnly).toContain('<span class="planning-quantity">100</span>');
    expect(readOnly).toContain(t.readOnlyNote);
    expect(readOnly).not.toContain(t.save);
    const empty = await render({ ...base, rows: [], total: 0 });
    expect(empty).toContain(messages.noDataFound);
    expect(empty).not.toContain("<table");
  });

  it("previews a group edit read-only, and posts the batch with its one-time id", async () => {
    const batch = { percent: 10, op: "increase", label: "+10%", id: "64b7f0c2a1b2c3d4e5f6a798" };
    const html = await render({ ...base, rows: [row(1, { preview: 110 })], total: 1, batch } as unknown as ResultsData);
    expect(html).toMatch(
      /<input class="planning-quantity" type="number" readonly=""[^>]*title="100 → 110" value="110"/,
    );
    expect(html).toContain('<input type="hidden" name="intent" value="lote"/>');
    expect(html).toContain(`<input type="hidden" name="batchId" value="${batch.id}"/>`);
    expect(html).toContain(t.batchMode("+10%", 1));
  });

  it("brings a refused save back with what was typed, the row's message and the conflicts", async () => {
    const html = await render(base, {
      kind: "error",
      message: "Conflito",
      rowErrors: { [ROW2]: "Valor inválido" },
      values: { [ROW1]: "150" },
      conflicts: [{ id: "c1", text: "SKU1 mudou" }],
    });
    expect(html).toMatch(/name="rows\[0\]\.valor"[^>]*value="150"/);
    expect(html).toContain(`<span id="quantity-error-${ROW2}" class="field__error">Valor inválido</span>`);
    expect(html).toContain('<ul class="planning-conflicts"><li>SKU1 mudou</li></ul>');
    expect(html).toContain(t.individualMode(1));
  });

  it("draws the URL's and the server's dialogs as plain markup", async () => {
    const confirm = await render(base, {
      kind: "confirm",
      text: "Salvar 1 alteração?",
      fields: [["intent", "unitario"]],
    });
    expect(confirm).toContain("Salvar 1 alteração?");
    expect(confirm).toContain('<input type="hidden" name="confirmed" value="1"/>');
    const groupEdit = await render({
      ...base,
      groupEdit: true,
      groupEditValues: { percent: "abc", op: "decrease" },
      groupEditErrors: ["Número inválido"],
    });
    expect(groupEdit).toMatch(/name="percent"[^>]*aria-invalid="true"[^>]*value="abc"/);
    expect(groupEdit).toContain('checked="" value="decrease"');
    expect(groupEdit).toContain(`<input type="hidden" name="batchId" value="${base.newBatchId}"/>`);
    const history = await render({
      ...base,
      history: {
        label: "SKU1",
        current: "Atual: 100",
        threadHref: "/ij/plan_edit/comentarios?linha=r1",
        entries: [{ at: "01/02", user: "a@b", mode: "M", change: "1 → 2" }],
      },
    });
    expect(history).toContain("SKU1 · Atual: 100");
    // The row's comments open from its history.
    expect(history).toContain(`href="/ij/plan_edit/comentarios?linha=r1">${t.historyThread}</a>`);
    expect(history).toContain("<td>01/02</td><td>a@b</td><td>M</td><td>1 → 2</td>");
    const saved = await render({
      ...base,
      saved: { title: "Salvo", details: "2 linhas", conflicts: [{ id: "c2", text: "SKU2 mudou" }] },
    } as unknown as ResultsData);
    expect(saved).toContain("Salvo");
    expect(saved).toContain("<li>SKU2 mudou</li>");
  });
});
