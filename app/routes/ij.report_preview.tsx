// Screen: Planning report results: /ij/report_preview.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { handleResultsAction, loadResults } from "~/features/planning/results.server";
import { ResultsScreen } from "~/features/planning/results-screen";
import { REPORT_SCREEN } from "~/features/planning/screens";
import { canWriteRoute, requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: REPORT_SCREEN.title }];

/**
 * /ij/report_preview (spec 001 §2, §4): the planning results screen for the report filter; the page index in the
 * URL starts at 0 (shown from 1). Report readers read it; saving needs the planning rule (app/access.ts), so the
 * others see it read-only and the action refuses them.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report_preview", request);
  return loadResults(request, user, REPORT_SCREEN, canWriteRoute(user, "routes/ij.report_preview"));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report_preview", request, "write");
  return handleResultsAction(request, user, REPORT_SCREEN);
}

export default function ReportPreviewPage() {
  return (
    <ResultsScreen
      screen={REPORT_SCREEN}
      data={useLoaderData<typeof loader>()}
      actionData={useActionData<typeof action>()}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
