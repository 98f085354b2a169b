import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRouteAccess } from "~/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FilterForm } from "~/components/planning/filter-form";
import { loadFilterScreen } from "~/components/planning/filter.server";
import { PLAN_SCREEN } from "~/components/planning/screens";

export const meta: MetaFunction = () => [{ title: PLAN_SCREEN.title }];

/** /ij/plan (spec 001 §2, step 1 Select): period, SKUs or SKU attributes, channel; Generate report goes to /ij/plan_edit. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.plan", request);
  return loadFilterScreen(request, PLAN_SCREEN);
}

export default function PlanFilterPage() {
  return <FilterForm screen={PLAN_SCREEN} data={useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
