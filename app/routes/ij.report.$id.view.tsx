// Screen: Report viewer: /ij/report/{id}/view.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { downloadFailure, readDownloadForm } from "~/features/reports-and-financial/download.server";
import { downloadRecord, viewable, viewerPageData } from "~/features/reports-and-financial/viewer.server";
import { ViewerPage } from "~/features/reports-and-financial/viewer-page";
import { reportsTexts as t } from "~/messages";
import { findReport } from "~/models/reports.server";
import { recordExport } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? t.viewerTitle(data.name) : t.reportsTitle },
];

/** /ij/report/{id}/view: the portal's online viewer of a report (opened in a new tab from the list). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report.$id.view", request);
  const report = viewable(await findReport(params.id ?? ""));
  const page = await viewerPageData(report, request.signal);
  // The audit trail: the report shown online has left the portal as much as a download (the Download button's own
  // link is recorded by /download/{token}).
  await recordExport({
    actor: user,
    object: { kind: "file", id: page.id, label: report?.originalName ?? null },
    dataset: "reports",
    details: { via: "reportView" },
  });
  return page;
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRouteAccess("routes/ij.report.$id.view", request);
  const fields = await readDownloadForm(request, {});
  if (!fields) return downloadFailure(400);
  return downloadRecord(viewable(await findReport(params.id ?? "")), fields.mode);
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
