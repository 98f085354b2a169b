import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { CELL_FRAGMENT } from "~/shared/cell-link";
import { NonceProvider } from "~/shared/ui/nonce";
import { ForecastGrid, INITIAL_PINNING } from "./forecast-grid";
import type { ForecastGridPayload } from "./forecast-grid-rules";
import { firstEditableColumn } from "./grid-scroll";

/**
 * Where the grid opens, as the server renders it: scrolled to the first editable month (a script with the page's
 * nonce runs before the grid hydrates), or at the cell a link names, which carries the link's fragment id (the
 * browser scrolls to it even without JavaScript).
 */

const SALARIES = "4101001 - Salários e Ordenados";
const CHARGES = "4101002 - Encargos Sociais";
const MONTHS = ["2026-01", "2026-02", "2026-03", "2026-04"];

const payload = (focus?: ForecastGridPayload["focus"]): ForecastGridPayload => ({
  months: MONTHS,
  firstForecastIndex: 2,
  editable: true,
  totals: [{ year: 2026, indexes: [0, 1, 2, 3], complete: false }],
  groups: [
    {
      name: "Despesas com Pessoal",
      accounts: [
        { account: SALARIES, label: "Salários", values: [1, 2, 3, 4], edited: [], stamps: [0, 0, 0, 0] },
        { account: CHARGES, label: "Encargos", values: [5, 6, 7, 8], edited: [], stamps: [0, 0, 0, 0] },
      ],
    },
  ],
  ...(focus ? { focus } : {}),
});

const render = (grid: ForecastGridPayload) =>
  renderAt(
    "/",
    <NonceProvider value="n0nce">
      <ForecastGrid
        payload={grid}
        caption="Grade"
        conflicts={[]}
        onConflictsResolved={() => undefined}
        onSave={() => undefined}
        saving={false}
        historyUrl={() => "/h"}
        commentsUrl={() => "/c"}
        columnPinning={INITIAL_PINNING}
        onColumnPinningChange={() => undefined}
      />
    </NonceProvider>,
  );

describe("where the review grid opens", () => {
  it("at the first editable month: a script with the page's nonce scrolls the grid there before it hydrates", async () => {
    expect(firstEditableColumn(payload())).toBe("m_2026-03");
    const html = await render(payload());
    const script = /<script nonce="n0nce">([^<]+)<\/script>/.exec(html);
    expect(script?.[1]).toContain('"m_2026-03"');
    // Right after the grid's scroll area, which it scrolls.
    expect(html).toMatch(/class="forecast-grid__scroll[^"]*"[^>]*>.*<\/div><script nonce="n0nce">/s);
    expect(html).not.toContain(`id="${CELL_FRAGMENT}"`);
  });

  it("at the cell a link names: that cell carries the link's fragment id, and no script scrolls elsewhere", async () => {
    const html = await render(payload({ line: 1, month: 3 }));
    expect(html.match(new RegExp(`id="${CELL_FRAGMENT}"`, "g"))).toHaveLength(1);
    // The second account's row, fourth month: its value 8,00.
    expect(html).toMatch(new RegExp(`<div id="${CELL_FRAGMENT}" role="gridcell"[^>]*>8,00</div>`));
    expect(html).not.toContain("<script");
  });
});
