import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireAccess } from "~/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { MASTER_DATA_TITLES, MasterDataSectionsNav, MasterDataTable } from "~/components/master-data/sections-nav";
import { TabsNav } from "~/components/ui/tabs-nav";
import { getBasePage, pageParam, pickTab, PLANNING_SECTIONS } from "~/models/master-data-queries.server";

export const meta: MetaFunction = () => [{ title: MASTER_DATA_TITLES.planning }];

/** The URL state: an unknown top tab is Product, an unknown inner tab its top tab's first, a bad page 1. */
const searchParamsSchema = z
  .object({
    top: z.string().optional().catch(undefined),
    // Checked against the chosen top tab's own inner tabs below; an unknown one is that top tab's first.
    tab: z.string().optional().catch(undefined),
    page: pageParam,
  })
  .transform(({ top, tab, page }) => {
    const section = pickTab(PLANNING_SECTIONS, top);
    const inner = pickTab<(typeof section.tabs)[number]>(section.tabs, tab);
    return { section, tab: inner, page };
  });

/**
 * /repo/master-data/planejamento: top tabs Product, Channel, Planning; each has its valid and discarded
 * inner tabs (Quantity / Quantity NOK, Channel / Channel NOK, Spend / Spend NOK). Top tab, inner tab and
 * page live in the URL; the collection read comes from the fixed table, never from the URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  const url = new URL(request.url);
  const { section, tab, page: pageNumber } = searchParamsSchema.parse({
    top: url.searchParams.get("top") ?? undefined,
    tab: url.searchParams.get("tab") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
  });
  const page = await getBasePage(tab.collection, pageNumber, tab.columns);
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
