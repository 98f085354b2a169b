import type { RouteId } from "~/access";
import { type MasterDataTab, tabbedTableParams } from "~/models/master-data-queries.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { masterDataExcelPanel, tabbedScreenTarget } from "./excel-routes.server";
import { loadMasterDataTable } from "./file-names.server";

/**
 * The data of a master-data screen of inner tabs (/repo/master-data/canal, /repo/master-data/planejamento): the tab,
 * the page and the file filter from the URL, the tab's page of rows and the Excel panel. The collection read comes
 * from the screen's fixed tab table, never from the URL. The route guards first and passes its own id.
 */
export async function loadTabbedMasterData(
  request: Request,
  user: AuthenticatedUser,
  on: { screen: string; tabs: readonly MasterDataTab[]; routeId: RouteId },
) {
  const url = new URL(request.url);
  const { tab, page: pageNumber, file } = tabbedTableParams(on.tabs, url);
  const [page, excel] = await Promise.all([
    loadMasterDataTable(tab.collection, pageNumber, tab.columns, file),
    masterDataExcelPanel(tabbedScreenTarget(on.screen, on.tabs, url), on.routeId, user, url),
  ]);
  return {
    tabs: on.tabs.map((t) => ({ id: t.id, label: t.label, to: `?tab=${t.id}` })),
    tab: { id: tab.id, label: tab.label },
    file: file ?? null,
    table: { columns: [...tab.columns], rows: page.rows, count: page.count, page: page.page, pageSize: page.pageSize },
    excel,
  };
}
