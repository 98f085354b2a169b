import { useLoaderData } from "@remix-run/react";
import { ExcelPanel } from "~/shared/excel/panel";
import { TabsNav } from "~/shared/ui/tabs-nav";
import { FileFilter, MasterDataSectionsNav, MasterDataTable } from "./sections-nav";
import type { loadTabbedMasterData } from "./tabbed-page.server";

/**
 * The page of a master-data screen of inner tabs (spec 000 §2: Channel, and Planning's Quantity and Spend, each with
 * its NOK tab): the top tabs with this screen current, the inner tabs, the file filter, the Excel panel once the base
 * has rows (or a report to show) and the table. Its route loads with `loadTabbedMasterData`.
 */
export function TabbedMasterDataPage({ title, current }: { title: string; current: "canal" | "planejamento" }) {
  const data = useLoaderData<typeof loadTabbedMasterData>();
  return (
    <section className="master-data">
      <h1>{title}</h1>
      <MasterDataSectionsNav current={current} />
      <TabsNav tabs={data.tabs} current={data.tab.id} label={title} variant="inner" />
      <FileFilter file={data.file} keep={{ tab: data.tab.id }} />
      {data.table.count > 0 || data.excel.report ? <ExcelPanel excel={data.excel} /> : null}
      <MasterDataTable data={data.table} caption={data.tab.label} />
    </section>
  );
}
