// Screen: Master data, planning: /repo/master-data/planejamento.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { MASTER_DATA_TITLES } from "~/features/repository-and-master-data/sections-nav";
import { TabbedMasterDataPage } from "~/features/repository-and-master-data/tabbed-page";
import { loadTabbedMasterData } from "~/features/repository-and-master-data/tabbed-page.server";
import { PLANNING_TABS } from "~/models/master-data-queries.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: MASTER_DATA_TITLES.planning }];

/**
 * /repo/master-data/planejamento (spec 000 §2): the top tabs Product, Channel and Planning (the three master-data
 * screens, this one Planning) and the inner tabs Quantity, Quantity NOK, Spend and Spend NOK. The inner tab, the
 * page and the file filter live in the URL; the collection read comes from the fixed table, never from the URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/repo.master-data.planejamento", request);
  return loadTabbedMasterData(request, user, {
    screen: "/repo/master-data/planejamento",
    tabs: PLANNING_TABS,
    routeId: "routes/repo.master-data.planejamento",
  });
}

export default function PlanningMasterDataPage() {
  return <TabbedMasterDataPage title={MASTER_DATA_TITLES.planning} current="planejamento" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
