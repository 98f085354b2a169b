import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireRouteAccess } from "~/auth.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { answerDownload, downloadFailure, readDownloadForm } from "~/components/reports/download.server";
import { ViewerPage } from "~/components/reports/viewer-page";
import { loadViewer } from "~/components/reports/viewer.server";
import { reportsTexts as t } from "~/messages";
import { findReport } from "~/models/reports.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? t.viewerTitle(data.name) : t.reportsTitle }];

/** A report with an online copy, by id; anything else is "not found" (an id without url opens nothing). */
async function viewableReport(id: string | undefined) {
  const report = await findReport(id ?? "");
  return report && report.url ? report : null;
}

/** /ij/report/{id}/view: the portal's online viewer of a report (opened in a new tab from the list). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.report.$id.view", request);
  const report = await viewableReport(params.id);
  if (!report) throw data(t.viewerNotFound, { status: 404 });
  const viewer = await loadViewer({ bucket: report.bucket, key: report.originalFile, name: report.originalName });
  return { id: String(report._id), ...viewer };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRouteAccess("routes/ij.report.$id.view", request);
  const fields = await readDownloadForm(request, {});
  if (!fields) return downloadFailure(400);
  const report = await viewableReport(params.id);
  return answerDownload(report ? { bucket: report.bucket, key: report.originalFile, filename: report.originalName } : null, fields.mode);
}

export default function ReportViewerPage() {
  const { id, name, content, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <ViewerPage
      name={name}
      content={content}
      error={error}
      inlineUrl={`/ij/report/${id}/file`}
      downloadFields={{}}
      documentError={actionData && !actionData.ok ? actionData.error : null}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
