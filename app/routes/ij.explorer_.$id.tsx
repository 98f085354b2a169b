// Screen: Explorer document: /ij/explorer/{id}.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { Highlighted } from "~/features/explorer/highlighted";
import { resultsHref } from "~/features/explorer/urls";
import { NAV_LABELS } from "~/navigation-labels";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/explorer/explorer.css";
import { answerDownload, downloadFailure, readDownloadForm } from "~/features/reports-and-financial/download.server";
import { DownloadButton, useDownloadOutcome } from "~/features/reports-and-financial/download-button";
import { explorerTexts, messages } from "~/messages";
import { findExplorerDocumentFile, getExplorerDocument } from "~/models/explorer.server";
import { parseSearch } from "~/models/explorer-search";
import { formatDate } from "~/shared/dates";
import { Alert } from "~/shared/ui/alert";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data?.document
      ? `${data.document.title.map((s) => s.text).join("")} · ${NAV_LABELS.explorer}`
      : NAV_LABELS.explorer,
  },
];

const exactSchema = z.enum(["1"]).optional().catch(undefined);

/**
 * /ij/explorer/{id}: one document of the explorer, whole, with the words of the search it was opened from
 * marked; the search parameters ride along so "Voltar aos resultados" returns to the same result page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.explorer_.$id", request);
  const url = new URL(request.url);
  const query = parseSearch(
    url.searchParams.get("search") ?? "",
    exactSchema.parse(url.searchParams.get("exactPh") ?? undefined) === "1",
  );
  const found = await getExplorerDocument(params.id ?? "", query);
  if (!found) return data({ document: null }, { status: 404 });
  return data({ document: { ...found, date: formatDate(found.date) } });
}

/**
 * POST intent=download: the uploaded file of the document, through the portal's download link (local
 * store) or a presigned GET (S3); a seeded document (no file) or a file gone from the store answers the spec's
 * download failure on this page.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireRouteAccess("routes/ij.explorer_.$id", request);
  const fields = await readDownloadForm(request, {});
  if (!fields) return downloadFailure(400);
  const file = await findExplorerDocumentFile(params.id ?? "");
  return answerDownload(file ? { bucket: file.bucket, key: file.key, filename: file.name } : null, fields.mode);
}

export default function ExplorerDocumentPage() {
  const { document } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const downloadError = useDownloadOutcome("explorer-file", actionData && !actionData.ok ? actionData.error : null);
  const location = useLocation();
  const back = resultsHref(location.search);
  const hasSearch = new URLSearchParams(location.search).has("search");
  return (
    <article className="explorer-doc" aria-labelledby="explorer-doc-title">
      <p className="explorer-doc__back">
        <Link to={back}>{hasSearch ? explorerTexts.backToResults : explorerTexts.backToExplorer}</Link>
      </p>
      {document ? (
        <>
          <h1 id="explorer-doc-title">
            <Highlighted segments={document.title} />
          </h1>
          <dl className="explorer-doc__meta" aria-label={explorerTexts.documentMeta}>
            <div>
              <dt>{messages.searchColumnCategory}</dt>
              <dd>{document.category}</dd>
            </div>
            <div>
              <dt>{messages.searchColumnSource}</dt>
              <dd>{document.source}</dd>
            </div>
            <div>
              <dt>{messages.searchColumnDate}</dt>
              <dd>{document.date}</dd>
            </div>
            {document.fileName ? (
              <div>
                <dt>{explorerTexts.documentFile}</dt>
                <dd className="explorer-doc__file">
                  <span>{document.fileName}</span>
                  <DownloadButton
                    fetcherKey="explorer-file"
                    fields={{}}
                    label={explorerTexts.downloadFileOf(document.fileName)}
                    text={explorerTexts.downloadFile}
                  />
                </dd>
              </div>
            ) : null}
          </dl>
          {downloadError ? <Alert tone="error">{downloadError}</Alert> : null}
          <div className="explorer-doc__body">
            <Highlighted segments={document.body} />
          </div>
        </>
      ) : (
        <>
          <h1 id="explorer-doc-title">{NAV_LABELS.explorer}</h1>
          <Alert tone="error">{explorerTexts.documentNotFound}</Alert>
        </>
      )}
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
