// Screen: Planning edit: /ij/plan_edit (step 2, the filter's quantities, individual and group edits).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { handleResultsAction, loadResults } from "~/features/planning/results.server";
import { ResultsScreen } from "~/features/planning/results-screen";
import { PLAN_SCREEN } from "~/features/planning/screens";
import { SaveViewForm } from "~/features/saved-views/save-view-form";
import { redirectToDefaultView } from "~/features/saved-views/views.server";
import { canWriteRoute, requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: PLAN_SCREEN.title }];

/**
 * /ij/plan_edit (spec 001 §2, step 2 Edit): the filter's planned quantities, 20 a page, newest first; individual
 * ("unitario") and batch ("lote") saves, the group edit, reset and each row's history.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.plan_edit", request);
  await redirectToDefaultView(user, request);
  return loadResults(request, user, PLAN_SCREEN, canWriteRoute(user, "routes/ij.plan_edit"));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.plan_edit", request, "write");
  return handleResultsAction(request, user, PLAN_SCREEN);
}

export default function PlanEditPage() {
  return (
    <>
      <ResultsScreen
        screen={PLAN_SCREEN}
        data={useLoaderData<typeof loader>()}
        actionData={useActionData<typeof action>()}
      />
      <SaveViewForm />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
