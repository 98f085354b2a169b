import { useMemo } from "react";
import { NAV_LABELS } from "~/access";
import { DataTable, textColumns } from "~/components/ui/data-table";
import { TabsNav } from "~/components/ui/tabs-nav";
import { messages } from "~/messages";

/** Headings of the master-data screens: the side menu's entry, then each screen's own name. */
export const MASTER_DATA_TITLES = {
  repositoryMaster: NAV_LABELS.repositoryMaster,
  channel: messages.masterDataTabs.channel,
  planning: messages.masterDataSections.planejamento,
} as const;

/** Links between the three master-data screens (the side menu has one entry, Repository Master). */
const SECTIONS = [
  { id: "product", label: messages.masterDataSections.product, to: "/repo/master-data" },
  { id: "canal", label: messages.masterDataSections.canal, to: "/repo/master-data/canal" },
  { id: "planejamento", label: messages.masterDataSections.planejamento, to: "/repo/master-data/planejamento" },
] as const;

export function MasterDataSectionsNav({ current }: { current: (typeof SECTIONS)[number]["id"] }) {
  return <TabsNav tabs={SECTIONS} current={current} label={MASTER_DATA_TITLES.repositoryMaster} />;
}

export type MasterDataTableData = {
  columns: { key: string; header: string }[];
  rows: { id: string; cells: Record<string, string> }[];
  count: number;
  page: number;
  pageSize: number;
};

/** A master-data base as the shared DataTable: 20 rows per page, "No data found" when empty. */
export function MasterDataTable({ data, caption }: { data: MasterDataTableData; caption: string }) {
  const columns = useMemo(() => textColumns<MasterDataTableData["rows"][number]>(data.columns), [data.columns]);
  return (
    <DataTable
      columns={columns}
      rows={data.rows}
      getRowId={(row) => row.id}
      rowCount={data.count}
      page={data.page}
      pageSize={data.pageSize}
      emptyText={messages.noDataFound}
      caption={caption}
    />
  );
}
