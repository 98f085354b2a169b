import type { ComponentType } from "react";
import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import ChannelPage from "~/routes/repo.master-data.canal";
import PlanningMasterDataPage from "~/routes/repo.master-data.planejamento";
import { MASTER_DATA_TITLES } from "./sections-nav";

/** /repo/master-data/canal and /repo/master-data/planejamento: one page of inner tabs over a master-data base. */

const loaded = (tabs: { id: string; label: string }[], count: number) => ({
  tabs: tabs.map((t) => ({ ...t, to: `?tab=${t.id}` })),
  tab: tabs[1],
  file: "a.csv",
  table: {
    columns: [
      { key: "cnpj", header: "CNPJ" },
      { key: "urlPath", header: "Arquivo" },
    ],
    rows: Array.from({ length: count }, (_, i) => ({ id: `r${i}`, cells: { cnpj: `C${i}`, urlPath: "a.csv" } })),
    count,
    page: 1,
    pageSize: 20,
  },
  excel: { exportHref: "/x/excel?tab=b", importAction: "/x/excel?tab=b", canImport: true, report: null, job: null },
});

async function render(Page: ComponentType, path: string, data: ReturnType<typeof loaded>) {
  return renderAt(path, [{ id: "page", path: "*", loader: () => data, Component: Page }]);
}

const decode = (html: string) => html.replaceAll("&amp;", "&");

describe("the tabbed master-data pages", () => {
  it("/repo/master-data/canal: Channel and Channel NOK, the file filter keeping the tab, the Excel panel", async () => {
    const tabs = [
      { id: "channel", label: "Channel" },
      { id: "channel_nok", label: "Channel NOK" },
    ];
    const html = decode(await render(ChannelPage, "/repo/master-data/canal?tab=channel_nok", loaded(tabs, 2)));
    expect(html).toContain(`<h1>${MASTER_DATA_TITLES.channel}</h1>`);
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*href="\/repo\/master-data\/canal"/);
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*href="\/repo\/master-data\/canal\?tab=channel_nok"/);
    expect(html).toContain('<input type="hidden" name="tab" value="channel_nok"/>');
    expect(html).toContain('href="/x/excel?tab=b"');
    expect(html).toContain('<caption class="visually-hidden">Channel NOK</caption>');
    expect(html).toContain("<td>C1</td>");
  });

  it("/repo/master-data/planejamento: its own title and tabs; no Excel panel over an empty base", async () => {
    const tabs = [
      { id: "quantity", label: "Quantity" },
      { id: "quantity_nok", label: "Quantity NOK" },
    ];
    const html = decode(await render(PlanningMasterDataPage, "/repo/master-data/planejamento", loaded(tabs, 0)));
    expect(html).toContain(`<h1>${MASTER_DATA_TITLES.planning}</h1>`);
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*href="\/repo\/master-data\/planejamento"/);
    expect(html).toContain('<input type="hidden" name="tab" value="quantity_nok"/>');
    expect(html).not.toContain('href="/x/excel?tab=b"');
    expect(html).toContain('<caption class="visually-hidden">Quantity NOK</caption>');
  });
});
