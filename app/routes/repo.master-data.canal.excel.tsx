// Screen: Master data, channel: Excel round trip: GET /repo/master-data/canal/excel (the tab's rows as XLSX), POST an edited export back.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  exportMasterDataScreen,
  importEditedExport,
  tabbedScreenTarget,
} from "~/features/repository-and-master-data/excel-routes.server";
import { CHANNEL_TABS } from "~/models/master-data-queries.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";

const SCREEN = "/repo/master-data/canal";

/** "Exportar Excel": every row of the tab and file filter in the URL, streamed as XLSX. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/repo.master-data.canal.excel", request);
  return exportMasterDataScreen(tabbedScreenTarget(SCREEN, CHANNEL_TABS, new URL(request.url)), user);
}

/** An edited export of the Channel tab sent back: the changed cells saved "via Excel", then the screen with the outcome. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/repo.master-data.canal.excel", request, "write");
  return importEditedExport(request, tabbedScreenTarget(SCREEN, CHANNEL_TABS, new URL(request.url)), user);
}
