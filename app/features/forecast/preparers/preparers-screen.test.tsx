import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { PreparersScreen, type ScreenData, type ScreenError } from "./preparers-screen";
import { preparersTexts as t } from "./texts";

/** The screen as the server renders it, before any JavaScript: every action is a plain form or link. */

const MARKETING = "CC1001 - Marketing";
const RETAIL = "CC1002 - Vendas Varejo";

const base: ScreenData = {
  state: { q: "cc1", without: true, page: 2 },
  rows: [
    {
      costCenter: MARKETING,
      inForecast: true,
      preparers: [{ email: "gold@example.com", known: true, name: "Joana Gold", type: "USER GOLD", mayPrepare: true }],
    },
    { costCenter: RETAIL, inForecast: true, preparers: [] },
  ],
  total: 22,
  page: 2,
  pageCount: 2,
  anyCostCenter: true,
  notice: null,
  people: [
    { email: "gold@example.com", name: "Joana Gold" },
    { email: "pedro@example.com", name: "" },
  ],
  removing: null,
  suggestion: null,
};

async function render(data: ScreenData, error: ScreenError = null) {
  return renderAt("/ij/forecast_preparers", <PreparersScreen data={data} error={error} busy={false} />);
}

const decode = (html: string) => html.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");

describe("PreparersScreen", () => {
  it("lists each cost centre with its preparers, a remove link and an add form that keep the filter", async () => {
    const html = decode(await render(base));
    expect(html).toContain("Joana Gold");
    expect(html).toContain(t.none);
    expect(html).toContain(t.shown(21, 22, 22));
    expect(html).toContain(
      `href="/ij/forecast_preparers?q=cc1&sem=1&page=2&remover=CC1001+-+Marketing&usuario=gold%40example.com"`,
    );
    expect(html).toContain(`action="/ij/forecast_preparers?q=cc1&sem=1&page=2"`);
    expect(html).toContain(`name="intent" value="add"`);
    expect(html).toContain(`name="cost_center_concat" value="${RETAIL}"`);
    // The pager keeps the filter; the template says it only adds.
    expect(html).toContain(`href="/ij/forecast_preparers?q=cc1&sem=1"`);
    expect(html).toContain(t.templateHelp);
    expect(html).toContain(`action="/ij/forecast_preparers/modelo"`);
    expect(html.toLowerCase()).toContain(`enctype="multipart/form-data"`);
  });

  it("lets each add form choose among the people who may prepare, found by name or e-mail, without JavaScript", async () => {
    const html = decode(await render(base));
    expect(html.match(/list="forecast-preparers-people"/g)).toHaveLength(2);
    expect(html).toContain(`placeholder="${t.emailPlaceholder}"`);
    // A name is no e-mail: the field is text, so the browser lets "Gabriela" through to the server.
    expect(html).not.toContain('type="email"');
    expect(html.match(/<input type="text" name="user" required=""/g)).toHaveLength(2);
    expect(html).toContain(
      `<datalist id="forecast-preparers-people"><option value="gold@example.com" label="Joana Gold (gold@example.com)"></option><option value="pedro@example.com" label="pedro@example.com"></option></datalist>`,
    );
  });

  it("shows the cost centres in the shared table: a named scrolling region, each row headed by its cost centre", async () => {
    const html = await render(base);
    expect(html).toContain(
      `role="region" aria-label="${t.tableCaption}"><table class="forecast-calendar__table forecast-preparers__table">`,
    );
    expect(html).toContain(`<th scope="row">${MARKETING}</th>`);
    expect(html).not.toContain("data-table__footer");
  });

  it("asks to confirm a removal with a form that says so", async () => {
    const removing = { costCenter: MARKETING, email: "gold@example.com", warning: null };
    const html = decode(await render({ ...base, removing }));
    expect(html).toContain(t.removePrompt("gold@example.com", MARKETING));
    expect(html).toContain(`name="confirm" value="1"`);
    expect(html).toContain(t.removeConfirm);
    expect(html).not.toContain('role="alert"');
    const warning = t.removeOnlySubmitted(MARKETING, "RF2 2027");
    const warned = decode(await render({ ...base, removing: { ...removing, warning } }));
    expect(warned).toContain(warning);
    expect(warned).toContain('role="alert"');
  });

  it("shows a refusal beside the cost centre it concerns", async () => {
    const html = await render(base, { message: "não é usuário do portal", costCenter: RETAIL });
    expect(html).toContain('role="alert">não é usuário do portal</p>');
    expect(html).toContain('aria-invalid="true"');
  });

  it("offers the several people a name matched, each a button that adds that one, beside the cost centre", async () => {
    const choices = [
      { email: "ana1@example.com", name: "Ana Souza" },
      { email: "ana2@example.com", name: "ana  souza" },
    ];
    const message = t.refused.severalNamed("ana souza", 2);
    const html = decode(await render(base, { message, costCenter: RETAIL, choices }));
    expect(html).toContain(`role="alert">${message}</p>`);
    for (const c of choices) expect(html).toContain(`<button type="submit" name="user" value="${c.email}"`);
    expect(html).toContain(t.pickChoice("Ana Souza", "ana1@example.com"));
    // The choices' form adds to the cost centre refused, keeping the filter.
    const form = html.slice(html.indexOf(`aria-label="${t.choicesLabel(RETAIL)}"`));
    expect(form).toContain(`name="cost_center_concat" value="${RETAIL}"`);
    expect(html.match(/name="intent" value="add"/g)).toHaveLength(3);
  });

  it("shows the proposals with one confirmation carrying them, and what did not match", async () => {
    const html = decode(
      await render({
        ...base,
        suggestion: {
          responsibles: 2,
          already: 0,
          proposals: [
            {
              unit: "2236",
              source: "CC1001 - Marketing Brasil",
              cost_center_concat: MARKETING,
              user: "gold@example.com",
              name: "Joana Gold",
            },
          ],
          unmatched: [
            {
              unit: "4313",
              costCenter: RETAIL,
              userResponsible: "Ana Souza",
              reason: { kind: "manyUsers", count: 2 },
              reasonText: "2 usuários chamados “Ana Souza”: atribua manualmente.",
            },
          ],
          pairs: [`${MARKETING}\tgold@example.com`],
        },
      }),
    );
    expect(html).toContain(t.suggestApply(1));
    expect(html).toContain(`name="intent" value="suggest"`);
    expect(html).toContain(`name="par" value="${MARKETING}\tgold@example.com"`);
    expect(html).toContain("2 usuários chamados “Ana Souza”: atribua manualmente.");
  });

  it("lists a template's refused rows with their line and reason", async () => {
    const html = await render({
      ...base,
      notice: {
        tone: "warning",
        title: t.uploadDone,
        text: t.ok.summary(1, 0, 1),
        refused: { rows: [{ line: 4, costCenter: RETAIL, email: "x@example.com", reason: "motivo" }], more: 3 },
      },
    });
    expect(html).toContain(t.ok.summary(1, 0, 1));
    expect(html).toContain("<td>4</td>");
    expect(html).toContain("motivo");
    expect(html).toContain(t.refusedMore(3));
  });
});
