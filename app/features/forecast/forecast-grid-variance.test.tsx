import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { ForecastGrid, INITIAL_PINNING } from "./forecast-grid";
import type { ForecastGridPayload } from "./forecast-grid-rules";
import { forecastTexts } from "./texts";
import { buildVariance, type VarianceGroup } from "./variance";

/**
 * The grid as the server renders it (the HTML a browser without JavaScript shows): the variance columns come after the
 * annual totals, read-only and marked apart, and without `?cols=` the grid's columns are exactly as before.
 */

const SALARIES = "4101001 - Salários e Ordenados";
const CHARGES = "4101002 - Encargos Sociais";

function payload(columns: readonly VarianceGroup[], previousTo = 2, complete = false): ForecastGridPayload {
  const groups = [
    {
      name: "Despesas com Pessoal",
      accounts: [
        { account: SALARIES, label: "Salários", values: [100, 200, 300], edited: [], stamps: [0, 0, 0] },
        { account: CHARGES, label: "Encargos", values: [50, 0, 10], edited: [], stamps: [0, 0, 0] },
      ],
    },
  ];
  const totals = [{ year: 2026, indexes: [0, 1, 2], complete }];
  return {
    months: ["2026-01", "2026-02", "2026-03"],
    firstForecastIndex: 1,
    editable: true,
    totals,
    groups,
    ...(columns.length > 0
      ? {
          variance: buildVariance({
            columns,
            previousRf: "RF1 2026",
            groups,
            monthCount: 3,
            firstForecastIndex: 1,
            totals,
            previous: new Map([[SALARIES, [80, 0, 246]]]),
            previousWindow: { from: 0, to: previousTo, firstForecastIndex: 0 },
            actual: new Map([[SALARIES, [90, null, null]]]),
            currentMonthIndex: 1,
          }),
        }
      : {}),
  };
}

async function render(columns: readonly VarianceGroup[], previousTo?: number, complete?: boolean): Promise<string> {
  const handler = createStaticHandler([{ path: "/", element: null }]);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw context;
  const router = createStaticRouter(
    [
      {
        path: "/",
        element: (
          <ForecastGrid
            payload={payload(columns, previousTo, complete)}
            caption="RF2 2026 · CC1001"
            conflicts={[]}
            onConflictsResolved={() => {}}
            onSave={() => {}}
            saving={false}
            historyUrl={() => "/"}
            columnPinning={INITIAL_PINNING}
            onColumnPinningChange={() => {}}
          />
        ),
      },
    ],
    context,
  );
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

// The rendered HTML read with patterns (the grid's cells are flat: a div with a text each).
const headers = (html: string) => [...html.matchAll(/role="columnheader" data-column="([^"]+)"/g)].map((m) => m[1]);
/** A body row's cells after its label: [class, text]. */
const rowCells = (html: string, label: string) => {
  const row = html.split('role="row"').find((chunk) => new RegExp(`role="rowheader"[^>]*>${label}</div>`).test(chunk));
  if (!row) throw new Error(`no row ${label}`);
  return [...row.matchAll(/role="gridcell"[^>]*class="([^"]*)"[^>]*>([^<]*)<\/div>/g)].map((m) => ({
    className: m[1],
    text: m[2],
  }));
};
const checkboxes = (html: string) =>
  [...html.matchAll(/<input type="checkbox" name="cols" value="([a-z]+)"( checked="")?/g)].map((m) => [
    m[1],
    m[2] !== undefined,
  ]);

describe("the grid's variance columns (server render)", () => {
  it("has the same columns as before without ?cols=, and the column groups' GET form unchecked", async () => {
    const html = await render([]);
    expect(headers(html)).toEqual(["acc_description_edit", "m_2026-01", "m_2026-02", "m_2026-03", "y_2026"]);
    expect(html).not.toContain("forecast-grid__cell--variance");
    expect(checkboxes(html)).toEqual([
      ["total", false],
      ["rf", false],
      ["actual", false],
    ]);
    expect(html).toMatch(/<form method="get"[^>]*class="forecast-grid__variance-form"/);
  });

  it("over fewer of the year's months than it has: this RF's total of those months beside the previous RF's, labelled", async () => {
    expect(await render(["total"])).toContain(">Total 2026 RF1 2026<");
    const html = await render(["total"], 1);
    expect(headers(html).slice(4)).toEqual(["y_2026", "vt_cur_2026", "vt_prev_2026", "vt_abs_2026", "vt_pct_2026"]);
    for (const label of [
      ">Total 2026 (jan–fev/26, 2 de 3 meses)<",
      ">Total 2026 RF1 2026 (jan–fev/26, 2 de 3 meses)<",
      ">Δ Total 2026 (jan–fev/26)<",
      ">Δ% Total 2026 (jan–fev/26)<",
    ])
      expect(html).toContain(label);
    // Salários over January and February: 300 against 80 (+220, 275,0%); the window's 3 months: 600.
    expect(
      rowCells(html, "Salários")
        .slice(3)
        .map((c) => c.text),
    ).toEqual(["600,00", "300,00", "80,00", "220,00", "275,0%"]);
    // At every row the Δ shown is the current total shown minus the previous one shown.
    const amount = (text: string) => Number(text.replace(/\./g, "").replace(",", "."));
    for (const label of ["Salários", "Encargos", forecastTexts.grandTotal]) {
      const [current, previous, abs] = rowCells(html, label)
        .slice(4, 7)
        .map((c) => c.text);
      if (previous === "—") expect(abs).toBe("—");
      else expect(amount(abs)).toBeCloseTo(amount(current) - amount(previous), 9);
    }
  });

  it("labels the year's total as the whole year when its comparison covers fewer months", async () => {
    const html = await render(["total"], 1, true);
    expect(html).toMatch(/data-column="y_2026"[^>]*><span[^>]*>Total 2026 \(ano inteiro\)</);
    expect(await render(["total"], 2, true)).not.toContain("ano inteiro");
  });

  it("adds the groups asked for beside what they compare, read-only, with — for a zero base and pt-BR percentages", async () => {
    const html = await render(["total", "rf", "actual"]);
    expect(headers(html)).toEqual([
      "acc_description_edit",
      "m_2026-01",
      "vr_abs_2026-01",
      "vr_pct_2026-01",
      "va_abs_2026-01",
      "va_pct_2026-01",
      "m_2026-02",
      "vr_abs_2026-02",
      "vr_pct_2026-02",
      "m_2026-03",
      "vr_abs_2026-03",
      "vr_pct_2026-03",
      "y_2026",
      "vt_prev_2026",
      "vt_abs_2026",
      "vt_pct_2026",
    ]);
    /** A row's cells by their column's id. */
    const cells = (label: string) => {
      const row = rowCells(html, label);
      return Object.fromEntries(
        headers(html)
          .slice(1)
          .map((id, i) => [id, row[i]]),
      );
    };
    const texts = (label: string, ids: string[]) => ids.map((id) => cells(label)[id].text);
    const variances = headers(html).filter((id) => /^v/.test(id));
    // Salários: total 600 against 326 (+274, 84,0%); Jan 100 − 80; Feb 200 − 0 (zero base); Mar 300 − 246; and the
    // closed January (an actual here): what RF1 forecast for it, 80, against the actual 90.
    expect(texts("Salários", variances)).toEqual([
      "20,00",
      "25,0%",
      "-10,00",
      "-11,1%",
      "200,00",
      "—",
      "54,00",
      "22,0%",
      "326,00",
      "274,00",
      "84,0%",
    ]);
    expect(cells("Salários")["va_pct_2026-01"].className).toContain("is-negative");
    // Encargos has no previous RF record and no actual.
    expect(texts("Encargos", variances)).toEqual(Array(11).fill("—"));
    // The cost centre's total: sums 150, 200, 310 against 80, 0, 246.
    expect(
      texts(
        forecastTexts.grandTotal,
        variances.filter((id) => id.startsWith("vr_")),
      ),
    ).toEqual(["70,00", "87,5%", "200,00", "—", "64,00", "26,0%"]);
    const variance = rowCells(html, "Salários").filter((c) => c.className.includes("forecast-grid__cell--variance"));
    expect(variance).toHaveLength(11);
    expect(variance.some((c) => c.className.includes("is-editable"))).toBe(false);
    expect(checkboxes(html).every(([, checked]) => checked)).toBe(true);
  });
});
