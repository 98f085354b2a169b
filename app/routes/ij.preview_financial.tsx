// Screen: Financial statement viewer: /ij/preview_financial?doc={id}.

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { ID_PARAM_MAX } from "~/shared/limits";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/reports-and-financial/reports.css";
import { downloadFailure, readDownloadForm } from "~/features/reports-and-financial/download.server";
import { downloadRecord, viewable, viewerPageData } from "~/features/reports-and-financial/viewer.server";
import { ViewerPage } from "~/features/reports-and-financial/viewer-page";
import { reportsTexts as t } from "~/messages";
import { findStatementDocument } from "~/models/financial.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? t.viewerTitle(data.name) : t.financialTitle },
];

/** /ij/preview_financial?doc={id}: a financial statement in the portal's viewer (opened from a card in a new tab). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.preview_financial", request);
  const record = viewable(await findStatementDocument(new URL(request.url).searchParams.get("doc") ?? ""));
  return viewerPageData(record, request.signal);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRouteAccess("routes/ij.preview_financial", request);
  const fields = await readDownloadForm(request, { doc: z.string().trim().min(1).max(ID_PARAM_MAX) });
  if (!fields) return downloadFailure(400);
  return downloadRecord(viewable(await findStatementDocument(fields.doc)), fields.mode);
}

export default function FinancialStatementViewer() {
  const { id, name, content, error } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <ViewerPage
      name={name}
      content={content}
      error={error}
      inlineUrl={`/ij/preview_financial/${id}/file`}
      downloadFields={{ doc: id }}
      documentError={actionData && !actionData.ok ? actionData.error : null}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
