// Screen: Master data, product: Excel round trip: GET /repo/master-data/excel (the chosen base's rows as XLSX), POST an edited export back.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  exportMasterDataScreen,
  importEditedExport,
  productScreenTarget,
} from "~/features/repository-and-master-data/excel-routes.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";

/** "Exportar Excel": every row of the base and file filter in the URL (the screen's own), streamed as XLSX. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/repo.master-data.excel", request);
  return exportMasterDataScreen(await productScreenTarget(new URL(request.url)), user);
}

/** An edited export sent back: the changed cells saved "via Excel", then the screen with "N alterados, M conflitos, K recusados". */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/repo.master-data.excel", request, "write");
  return importEditedExport(request, await productScreenTarget(new URL(request.url)), user);
}
