// Screen: Processing: /captura/processando, the uploader's own files and jobs.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { SaveViewForm } from "~/features/saved-views/save-view-form";
import { redirectToDefaultView } from "~/features/saved-views/views.server";
import { handleRetryAction, loadJobList } from "~/features/uploads-and-jobs/job-list.server";
import { JobListPage } from "~/features/uploads-and-jobs/job-list-page";
import { jobTexts } from "~/messages";
import { NAV_LABELS } from "~/navigation-labels";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: NAV_LABELS.processing }];

/**
 * /captura/processando: the signed-in uploader's own files and their processing jobs, newest status
 * change first, 20 or 40 per page (page and size in the URL). It polls while a job is in progress.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/captura.processando", request);
  // The user's default view (a redirect when there is one) is read together with the list's page and counts.
  const [, list] = await Promise.all([
    redirectToDefaultView(user, request),
    loadJobList(request, user, { ownOnly: true }),
  ]);
  return list;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/captura.processando", request);
  return handleRetryAction(request, user, { ownOnly: true });
}

export default function ProcessingPage() {
  return (
    <>
      <JobListPage title={NAV_LABELS.processing} note={jobTexts.ownJobsNote} showUser={false} />
      <SaveViewForm />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
