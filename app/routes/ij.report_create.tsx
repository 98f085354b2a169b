// Screen: Planning report filter: /ij/report_create.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadFilterScreen } from "~/features/planning/filter.server";
import { FilterForm } from "~/features/planning/filter-form";
import { REPORT_SCREEN } from "~/features/planning/screens";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: REPORT_SCREEN.title }];

/**
 * The report filter screen (spec 001 §2 "Report filter screen", its route ours: docs/decisions.md): the period and
 * the catalogue's lists (sku, brand, category, hero, major category, abcd, sub category, plc local), each kept by
 * its field name in the form and the URL; Generate report leads to /ij/report_preview.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.report_create", request);
  return loadFilterScreen(request, REPORT_SCREEN);
}

export default function ReportFilterPage() {
  return <FilterForm screen={REPORT_SCREEN} data={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
