/**
 * The browser side of bench/forecast/grid.ts: the real ForecastGrid (production React) and a plain HTML table of the
 * same rows, columns and texts, each rendered into its own container; the script calls the window functions below.
 */
import { useState } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import "~/styles/app.css";
import "~/shared/ui/data-table.css";
import "~/features/forecast/forecast.css";
import { ForecastGrid, INITIAL_PINNING } from "~/features/forecast/forecast-grid";
import { type ForecastGridPayload, gridRows, sumValues, yearSums } from "~/features/forecast/forecast-grid-rules";
import { formatPtBr2 } from "~/shared/numbers";

export type Bench = {
  renderGrid: (payload: ForecastGridPayload) => Promise<number>;
  pasteGrid: (tsv: string, row: number, column: number) => Promise<{ ms: number; changed: number }>;
  renderBaseline: (payload: ForecastGridPayload) => number;
  pasteBaseline: (tsv: string, row: number, column: number) => number;
  clear: () => void;
};

const host = document.getElementById("host") as HTMLElement;
let root: Root | null = null;

const channel = new MessageChannel();
const nextTask = () =>
  new Promise<void>((resolve) => {
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/** Forces style and layout, so a figure includes what the browser does before it can paint. */
const layout = (el: Element) => (el as HTMLElement).offsetHeight + el.getBoundingClientRect().width;

/** The grid's variance toggles are a Remix `<Form>`, which needs a router around it. */
function Routed({ payload }: { payload: ForecastGridPayload }) {
  const [router] = useState(() => createMemoryRouter([{ path: "/", element: <Page payload={payload} /> }]));
  return <RouterProvider router={router} />;
}

function Page({ payload }: { payload: ForecastGridPayload }) {
  const [pinning, setPinning] = useState(INITIAL_PINNING);
  return (
    <ForecastGrid
      payload={payload}
      caption="bench"
      conflicts={[]}
      onConflictsResolved={() => undefined}
      onSave={() => undefined}
      saving={false}
      historyUrl={() => "#"}
      columnPinning={pinning}
      onColumnPinningChange={setPinning}
    />
  );
}

const bench: Bench = {
  clear() {
    root?.unmount();
    root = null;
    host.innerHTML = "";
  },

  /** Mount to laid-out DOM, including the render after the mount effect that adds the toolbar and the column buttons. */
  async renderGrid(payload) {
    bench.clear();
    const start = performance.now();
    root = createRoot(host);
    flushSync(() => root?.render(<Routed payload={payload} />));
    // React renders the effect's update in a scheduler task (a MessageChannel message), queued before ours.
    while (!host.querySelector(".forecast-grid__toolbar")) await nextTask();
    layout(host);
    return performance.now() - start;
  },

  /** A paste event on a cell, to the committed and laid-out DOM. */
  async pasteGrid(tsv, row, column) {
    // A row's children are its cells in column order.
    const cell = host.querySelector(`[data-row="${row}"]`)?.children[column] as HTMLElement | undefined;
    if (!cell) throw new Error("no cell to paste into");
    cell.focus();
    const before = host.querySelectorAll(".is-changed").length;
    const data = new DataTransfer();
    data.setData("text/plain", tsv);
    const start = performance.now();
    cell.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    // React commits a discrete event's update in a microtask queued during the event; ours runs after it.
    await Promise.resolve();
    layout(host);
    const ms = performance.now() - start;
    return { ms, changed: host.querySelectorAll(".is-changed").length - before };
  },

  /** The same rows, columns and formatted texts as a plain table built with one innerHTML, sticky header included. */
  renderBaseline(payload) {
    bench.clear();
    const start = performance.now();
    const rows = gridRows(payload.groups);
    const values = payload.groups.flatMap((g) => g.accounts.map((a) => a.values));
    const sums = sumValues(payload.groups, values, payload.months.length);
    const head = ["Conta", ...payload.months, ...payload.totals.map((t) => `Total ${t.year}`)]
      .map((h) => `<th>${h}</th>`)
      .join("");
    const body = rows
      .map((row, r) => {
        const v =
          row.type === "row"
            ? values[row.line]
            : row.type === "step-total"
              ? sums.groups[row.group]
              : row.type === "step-row"
                ? sums.grand
                : null;
        const cells = v
          ? [...v, ...yearSums(v, payload.totals)]
              .map((n, c) => `<td data-col="${c + 1}">${n === null ? "—" : formatPtBr2(n)}</td>`)
              .join("")
          : "";
        return `<tr data-row="${r}"><th>${row.label}</th>${cells}</tr>`;
      })
      .join("");
    host.innerHTML = `<div class="forecast-grid__scroll" style="max-height:500px"><table class="forecast-grid__table"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
    layout(host);
    return performance.now() - start;
  },

  /** The baseline's paste: the same texts written straight into the same number of cells. */
  pasteBaseline(tsv, row, column) {
    const start = performance.now();
    const lines = tsv
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => l.split("\t"));
    const body = host.querySelector("tbody") as HTMLTableSectionElement;
    lines.forEach((cells, i) => {
      const tr = body.rows[row + i];
      cells.forEach((text, j) => {
        const td = tr?.cells[column + j];
        if (td) td.textContent = formatPtBr2(Number(text.replace(",", ".")));
      });
    });
    layout(host);
    return performance.now() - start;
  },
};

(window as unknown as { bench: Bench }).bench = bench;
