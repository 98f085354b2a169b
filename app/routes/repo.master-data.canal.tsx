import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireAccess } from "~/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MASTER_DATA_TITLES, MasterDataSectionsNav, MasterDataTable } from "~/components/master-data/sections-nav";
import { TabsNav } from "~/components/ui/tabs-nav";
import { CHANNEL_TABS, getBasePage, pageParam, pickTab } from "~/models/master-data-queries.server";

export const meta: MetaFunction = () => [{ title: MASTER_DATA_TITLES.channel }];

/** The URL state: an unknown tab is the first (Channel), a bad page is page 1. */
const searchParamsSchema = z.object({
  tab: z
    .string()
    .optional()
    .catch(undefined)
    .transform((id) => pickTab(CHANNEL_TABS, id)),
  page: pageParam,
});

/** /repo/master-data/canal: Channel (valid) and Channel NOK (discarded); tab and page in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  const url = new URL(request.url);
  const { tab, page: pageNumber } = searchParamsSchema.parse({
    tab: url.searchParams.get("tab") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
  });
  // The collection comes from the fixed tab table, never from the URL.
  const page = await getBasePage(tab.collection, pageNumber, tab.columns);
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
      <h1>{MASTER_DATA_TITLES.channel}</h1>
      <MasterDataSectionsNav current="canal" />
      <TabsNav tabs={data.tabs} current={data.tab.id} label={MASTER_DATA_TITLES.channel} variant="inner" />
      <MasterDataTable data={data.table} caption={data.tab.label} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
