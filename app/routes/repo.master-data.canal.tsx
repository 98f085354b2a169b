// Screen: Master data, channel: /repo/master-data/canal.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { MASTER_DATA_TITLES } from "~/features/repository-and-master-data/sections-nav";
import { TabbedMasterDataPage } from "~/features/repository-and-master-data/tabbed-page";
import { loadTabbedMasterData } from "~/features/repository-and-master-data/tabbed-page.server";
import { CHANNEL_TABS } from "~/models/master-data-queries.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: MASTER_DATA_TITLES.channel }];

/** /repo/master-data/canal: Channel (valid) and Channel NOK (discarded); tab, page and file in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/repo.master-data.canal", request);
  return loadTabbedMasterData(request, user, {
    screen: "/repo/master-data/canal",
    tabs: CHANNEL_TABS,
    routeId: "routes/repo.master-data.canal",
  });
}

export default function ChannelPage() {
  return <TabbedMasterDataPage title={MASTER_DATA_TITLES.channel} current="canal" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
