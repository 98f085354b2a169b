import { useActionData, useLoaderData } from "@remix-run/react";
import type { handleRetryAction, loadJobList } from "./job-list.server";
import { JobTable, RetryAll, RetryErrors } from "./job-table";
import { useRevalidateWhile } from "./use-polling";

/**
 * The page of both job lists, /captura/processando (the uploader's own files, without the user column) and
 * /jobs/executados (everyone's): their route modules guard, load with `loadJobList` and act with
 * `handleRetryAction`; this draws what they loaded, polling while a job is in progress.
 */
export function JobListPage({ title, note, showUser }: { title: string; note: string; showUser: boolean }) {
  const data = useLoaderData<typeof loadJobList>();
  const actionData = useActionData<typeof handleRetryAction>();
  useRevalidateWhile(data.polling);
  return (
    <section className="job-page">
      <h1>{title}</h1>
      <p className="job-page__note">{note}</p>
      <div className="job-page__alerts">
        <RetryErrors rows={data.rows} actionError={actionData && !actionData.ok ? actionData.error : null} />
      </div>
      <RetryAll
        count={data.retryAllCount}
        confirm={actionData?.ok ? actionData.confirmRetryAll : null}
        batch={data.retryBatch}
      />
      <JobTable data={data} caption={title} showUser={showUser} />
    </section>
  );
}
