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

describe("ChartCard's drawing, on the server", () => {
  const count = (html: string, cls: string) => html.split(`class="${cls}"`).length - 1;

  it("draws a bar per non-zero value of each series, the axes' labels and a legend for several series", () => {
    const html = renderToStaticMarkup(
      <ChartCard
        chart={{
          id: "b",
          title: "Por mês",
          kind: "bar",
          rows: [
            { label: "2025-01", ok: 10, nok: 2 },
            { label: "2025-02", ok: 25, nok: 0 },
            { label: "2025-03", ok: 5 },
          ],
          labels: { ok: "Aceitos", nok: "Recusados" },
        }}
      />,
    );
    expect(html).toContain("<svg");
    // Feb's nok is 0: no bar of no height (the table still says 0); Mar has no nok at all.
    expect(count(html, "chart-plot__bar")).toBe(4);
    expect(html).toContain(">jan/2025</text>");
    expect(html).toContain(">30</text>");
    expect(html).toMatch(/<ul class="chart-plot__legend"><li><i style="background:#0b5cad"><\/i>Aceitos<\/li>/);
    expect(html).toContain("Recusados</li>");
    // The numbers stay in a table for screen readers; the drawing is hidden from them.
    expect(html).toMatch(/<div class="chart-card__plot" aria-hidden="true">/);
    expect(headersOf(html)).toEqual([dashboardTexts.chartCategory, "Aceitos", "Recusados"]);
  });

  it("draws a line per series and a slice per positive value of a pie", () => {
    const line = renderToStaticMarkup(
      <ChartCard
        chart={{
          id: "l",
          title: "Linha",
          kind: "line",
          rows: [
            { label: "a", value: 1 },
            { label: "b", value: 3 },
          ],
        }}
      />,
    );
    expect(count(line, "chart-plot__line")).toBe(1);
    expect(line).not.toContain("chart-plot__legend");
    const pie = renderToStaticMarkup(
      <ChartCard
        chart={{
          id: "p",
          title: "Pizza",
          kind: "pie",
          rows: [
            { label: "Varejo", value: 3 },
            { label: "Atacado", value: 1 },
            { label: "Nada", value: 0 },
          ],
        }}
      />,
    );
    expect(count(pie, "chart-plot__slice")).toBe(2);
    expect(pie).toContain(">Varejo</text>");
  });
});
