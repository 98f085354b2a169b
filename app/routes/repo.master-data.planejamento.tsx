import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAccess } from "~/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MASTER_DATA_TITLES, MasterDataSectionsNav, MasterDataTable } from "~/components/master-data/sections-nav";
import { TabsNav } from "~/components/ui/tabs-nav";
import { getBasePage, parsePage, pickTab, PLANNING_SECTIONS } from "~/models/master-data-queries.server";

export const meta: MetaFunction = () => [{ title: MASTER_DATA_TITLES.planning }];

/**
 * /repo/master-data/planejamento: top tabs Product, Channel, Planning; each has its valid and discarded
 * inner tabs (Quantity / Quantity NOK, Channel / Channel NOK, Spend / Spend NOK). Top tab, inner tab and
 * page live in the URL; the collection read comes from the fixed table, never from the URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  const url = new URL(request.url);
  const section = pickTab(PLANNING_SECTIONS, url.searchParams.get("top"));
  const tab = pickTab(section.tabs, url.searchParams.get("tab"));
  const page = await getBasePage(tab.collection, parsePage(url.searchParams.get("page")), tab.columns);
  return {
    sections: PLANNING_SECTIONS.map((s) => ({ id: s.id, label: s.label, to: `?top=${s.id}` })),
    section: { id: section.id, label: section.label },
    tabs: section.tabs.map((t) => ({ id: t.id, label: t.label, to: `?top=${section.id}&tab=${t.id}` })),
    tab: { id: tab.id, label: tab.label },
    table: { columns: [...tab.columns], rows: page.rows, count: page.count, page: page.page, pageSize: page.pageSize },
  };
}

export default function PlanningMasterDataPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="master-data">
      <h1>{MASTER_DATA_TITLES.planning}</h1>
      <MasterDataSectionsNav current="planejamento" />
      <TabsNav tabs={data.sections} current={data.section.id} label={MASTER_DATA_TITLES.planning} />
      <TabsNav tabs={data.tabs} current={data.tab.id} label={data.section.label} variant="inner" />
      <MasterDataTable data={data.table} caption={`${data.section.label} / ${data.tab.label}`} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
