// Screen: Processing: /captura/processando, the uploader's own files and jobs.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { handleRetryAction, loadJobList } from "~/features/uploads-and-jobs/job-list.server";
import { JobTable, RetryAll, RetryErrors } from "~/features/uploads-and-jobs/job-table";
import { useRevalidateWhile } from "~/features/uploads-and-jobs/use-polling";
import { jobTexts } from "~/messages";
import { NAV_LABELS } from "~/navigation";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: NAV_LABELS.processing }];

/**
 * /captura/processando: the signed-in uploader's own files and their processing jobs, newest status
 * change first, 20 or 40 per page (page and size in the URL). It polls while a job is in progress.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/captura.processando", request);
  return loadJobList(request, user, { ownOnly: true });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/captura.processando", request);
  return handleRetryAction(request, user, { ownOnly: true });
}

export default function ProcessingPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  useRevalidateWhile(data.polling);
  return (
    <section className="job-page">
      <h1>{NAV_LABELS.processing}</h1>
      <p className="job-page__note">{jobTexts.ownJobsNote}</p>
      <div className="job-page__alerts">
        <RetryErrors rows={data.rows} actionError={actionData && !actionData.ok ? actionData.error : null} />
      </div>
      <RetryAll
        count={data.retryAllCount}
        confirm={actionData?.ok ? actionData.confirmRetryAll : null}
        batch={data.retryBatch}
      />
      <JobTable data={data} caption={NAV_LABELS.processing} showUser={false} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
