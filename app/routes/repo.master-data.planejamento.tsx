// Screen: Master data, planning: /repo/master-data/planejamento.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { masterDataExcelPanel, tabbedScreenTarget } from "~/features/repository-and-master-data/excel-routes.server";
import { loadMasterDataTable } from "~/features/repository-and-master-data/file-names.server";
import {
  FileFilter,
  MASTER_DATA_TITLES,
  MasterDataSectionsNav,
  MasterDataTable,
} from "~/features/repository-and-master-data/sections-nav";
import { PLANNING_TABS, tabbedTableParams } from "~/models/master-data-queries.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { ExcelPanel } from "~/shared/excel/panel";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import { TabsNav } from "~/shared/ui/tabs-nav";

const SCREEN = "/repo/master-data/planejamento";

export const meta: MetaFunction = () => [{ title: MASTER_DATA_TITLES.planning }];

/**
 * /repo/master-data/planejamento (spec 000 §2): the top tabs Product, Channel and Planning (the three master-data
 * screens, this one Planning) and the inner tabs Quantity, Quantity NOK, Spend and Spend NOK. The inner tab, the
 * page and the file filter live in the URL; the collection read comes from the fixed table, never from the URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/repo.master-data.planejamento", request);
  const url = new URL(request.url);
  const { tab, page: pageNumber, file } = tabbedTableParams(PLANNING_TABS, url);
  const [page, excel] = await Promise.all([
    loadMasterDataTable(tab.collection, pageNumber, tab.columns, file),
    masterDataExcelPanel(
      tabbedScreenTarget(SCREEN, PLANNING_TABS, url),
      "routes/repo.master-data.planejamento",
      user,
      url,
    ),
  ]);
  return {
    tabs: PLANNING_TABS.map((t) => ({ id: t.id, label: t.label, to: `?tab=${t.id}` })),
    tab: { id: tab.id, label: tab.label },
    file: file ?? null,
    table: { columns: [...tab.columns], rows: page.rows, count: page.count, page: page.page, pageSize: page.pageSize },
    excel,
  };
}

export default function PlanningMasterDataPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="master-data">
      <h1>{MASTER_DATA_TITLES.planning}</h1>
      <MasterDataSectionsNav current="planejamento" />
      <TabsNav tabs={data.tabs} current={data.tab.id} label={MASTER_DATA_TITLES.planning} variant="inner" />
      <FileFilter file={data.file} keep={{ tab: data.tab.id }} />
      {data.table.count > 0 || data.excel.report ? <ExcelPanel excel={data.excel} /> : null}
      <MasterDataTable data={data.table} caption={data.tab.label} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
