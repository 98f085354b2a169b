import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAccess } from "~/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MasterDataSectionsNav, MasterDataTable } from "~/components/master-data/sections-nav";
import { TabsNav } from "~/components/ui/tabs-nav";
import { CHANNEL_TABS, getBasePage, parsePage, pickTab } from "~/models/master-data-queries.server";

export const meta: MetaFunction = () => [{ title: "Channel" }];

/** /repo/master-data/canal: Channel (valid) and Channel NOK (discarded); tab and page in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  const url = new URL(request.url);
  const tab = pickTab(CHANNEL_TABS, url.searchParams.get("tab"));
  const page = await getBasePage(tab.collection, parsePage(url.searchParams.get("page")), tab.columns);
  return {
    tabs: CHANNEL_TABS.map((t) => ({ id: t.id, label: t.label, to: `?tab=${t.id}` })),
    tab: { id: tab.id, label: tab.label },
    table: { columns: [...tab.columns], rows: page.rows, count: page.count, page: page.page, pageSize: page.pageSize },
  };
}

export default function ChannelPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="master-data">
      <h1>Channel</h1>
      <MasterDataSectionsNav current="canal" />
      <TabsNav tabs={data.tabs} current={data.tab.id} label="Channel" variant="inner" />
      <MasterDataTable data={data.table} caption={data.tab.label} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
