// Screen: Planning filter: /ij/plan (step 1, Select).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadFilterScreen } from "~/features/planning/filter.server";
import { FilterForm } from "~/features/planning/filter-form";
import { PLAN_SCREEN } from "~/features/planning/screens";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

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
