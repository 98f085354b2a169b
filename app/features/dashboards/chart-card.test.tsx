import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChartCard, type ChartData } from "./chart-card";
import { dashboardTexts } from "./texts";

const headersOf = (html: string) => [...html.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);

describe("ChartCard", () => {
  it("heads a table chart with the definition's labels, accents included", () => {
    const chart: ChartData = {
      id: "files-by-user",
      title: "Arquivos enviados por usuário (top 10)",
      kind: "table",
      rows: [{ usuario: "ana@example.com", arquivos: 12, com_erro: 1 }],
      labels: { usuario: "Usuário", arquivos: "Arquivos", com_erro: "Com erro" },
    };
    const html = renderToStaticMarkup(<ChartCard chart={chart} />);
    expect(headersOf(html)).toEqual(["Usuário", "Arquivos", "Com erro"]);
    expect(html).toContain('<td class="num">12</td>');
  });

  it("falls back to Categoria for the label field and a humanized name for the rest", () => {
    const chart: ChartData = {
      id: "x",
      title: "Por dia",
      kind: "table",
      rows: [{ label: "2025-03-07", em_andamento: 2, concluidos: 3 }],
      labels: { concluidos: "Concluídos" },
    };
    const html = renderToStaticMarkup(<ChartCard chart={chart} />);
    expect(headersOf(html)).toEqual([dashboardTexts.chartCategory, "Em andamento", "Concluídos"]);
    expect(html).toContain("<td>07/03/2025</td>");
  });

  it("names a KPI's fields from the labels, with Total for an unnamed value", () => {
    const html = renderToStaticMarkup(
      <ChartCard
        chart={{
          id: "k",
          title: "Resumo",
          kind: "kpi",
          rows: [{ value: 1234, erros: 5 }],
          labels: { erros: "Com erro" },
        }}
      />,
    );
    expect(html).toContain(`<dt>${dashboardTexts.chartTotal}</dt><dd>1.234</dd>`);
    expect(html).toContain("<dt>Com erro</dt><dd>5</dd>");
  });

  it("shows a failed chart's reason in an alert under the chart title", () => {
    const html = renderToStaticMarkup(
      <ChartCard
        chart={{
          id: "e",
          title: "Quebrado",
          kind: "bar",
          rows: [],
          error: dashboardTexts.chartStageNotAllowed("$out"),
        }}
      />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain(dashboardTexts.chartFailed);
    expect(html).toContain(dashboardTexts.chartStageNotAllowed("$out"));
  });
});
