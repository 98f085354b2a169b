import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { SpreadPreviewForm } from "./spread-preview-form";

const render = (element: JSX.Element) => renderAt("/ij/plan_edit/distribuir", element);

describe("SpreadPreviewForm", () => {
  it("posts the fields that reproduce the spread, in order, under a table of the months' values now and spread", async () => {
    const html = await render(
      <SpreadPreviewForm
        action="/ij/plan_edit/distribuir?linha=7"
        title="Prévia"
        note={null}
        headers={["Mês", "Atual", "Distribuído"]}
        rows={[
          { key: "2025-01", label: "jan 25", current: "10", next: "12" },
          { key: "2025-02", label: "fev 25", current: "5", next: "3" },
        ]}
        carried={[
          ["linha", "7"],
          ["total", "15"],
        ]}
        confirm="Salvar a distribuição"
      />,
    );
    expect(html).toContain('<form method="post" action="/ij/plan_edit/distribuir?linha=7" class="spread__preview"');
    expect(html).toContain('<th scope="col">Mês</th><th scope="col">Atual</th><th scope="col">Distribuído</th>');
    expect(html).toContain(
      '<tr><th scope="row">jan 25</th><td class="num">10</td><td class="num">12</td></tr>' +
        '<tr><th scope="row">fev 25</th><td class="num">5</td><td class="num">3</td></tr>',
    );
    expect(html).toContain(
      '<input type="hidden" name="linha" value="7"/><input type="hidden" name="total" value="15"/>' +
        '<button type="submit" class="button button--primary">Salvar a distribuição</button>',
    );
    expect(html).not.toContain("alert--warning");
  });

  it("puts each cell's account before its month when the spread covers several, and shows the note", async () => {
    const html = await render(
      <SpreadPreviewForm
        action="/x"
        title="Prévia"
        note="Sem base para distribuir: distribuído igualmente."
        headers={["Conta", "Mês", "Atual", "Distribuído"]}
        rows={[{ key: "2025-03", account: "4.1.01", label: "mar 25", current: "1,00", next: "2,00" }]}
        carried={[
          ["conta", "4.1.01"],
          ["conta", "4.1.02"],
        ]}
        confirm="Salvar"
      />,
    );
    expect(html).toContain(
      '<tr><td>4.1.01</td><th scope="row">mar 25</th><td class="num">1,00</td><td class="num">2,00</td></tr>',
    );
    expect(html).toContain('<div class="alert__body">Sem base para distribuir: distribuído igualmente.</div>');
    expect(html).toContain("alert--warning");
    expect(html).toContain('name="conta" value="4.1.01"/><input type="hidden" name="conta" value="4.1.02"/>');
  });
});
