import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { forecastTexts as t } from "~/messages";
import ForecastCalendarPage from "~/routes/ij.report_preview_schneider";

/** /ij/report_preview_schneider: every period with its calendar, the open one set apart, each linking to review. */

type Loaded = { rows: { name: string; open: boolean; costCenters: number; href: string }[] };

async function render(loaded: Loaded) {
  const rows = loaded.rows.map((r) => ({ ...r, anchor: "05/05", editMonth: "mai/2026", window: "mai–dez" }));
  const html = await renderAt("/ij/report_preview_schneider", [
    { id: "page", path: "*", loader: () => ({ rows }), Component: ForecastCalendarPage },
  ]);
  return html.replaceAll("&amp;", "&");
}

describe("the forecast review calendar", () => {
  it("lists the periods in a named scrolling region, each headed by its name, the open one marked", async () => {
    const html = await render({
      rows: [
        { name: "RF5 2026", open: true, costCenters: 1234, href: "/ij/report_create_schneider?rf=RF5+2026" },
        { name: "RF4 2026", open: false, costCenters: 3, href: "/ij/report_create_schneider?rf=RF4+2026" },
      ],
    });
    expect(html).toContain(`role="region" aria-label="${t.calendarTitle}"><table class="forecast-calendar__table">`);
    expect(html).toMatch(/<tr data-row-id="RF5 2026" class="is-open"><th scope="row">RF5 2026<\/th>/);
    expect(html).toMatch(/<tr data-row-id="RF4 2026"><th scope="row">RF4 2026<\/th>/);
    expect(html).toContain(`<td>${t.stateOpen}</td>`);
    expect(html).toContain(`<td class="forecast-calendar__number">${(1234).toLocaleString("pt-BR")}</td>`);
    expect(html).toContain(
      `<a aria-label="${t.reviewOf("RF4 2026")}" data-discover="true" href="/ij/report_create_schneider?rf=RF4+2026">${t.review}</a>`,
    );
    expect(html).toContain(`<span class="visually-hidden">${t.review}</span></th>`);
    expect(html).not.toContain("data-table__footer");
  });

  it("says when there is no period", async () => {
    const html = await render({ rows: [] });
    expect(html).toContain(t.noScenarios);
    expect(html).not.toContain("<table");
  });
});
