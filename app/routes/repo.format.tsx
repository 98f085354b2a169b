// Screen: File repository: /repo/format, every uploaded file.

import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useMemo } from "react";
import { z } from "zod";
import { parseListParams } from "~/features/uploads-and-jobs/job-list.server";
import { jobTexts, messages } from "~/messages";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { ID_PARAM_MAX } from "~/shared/limits";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/uploads-and-jobs/jobs.css";
import { findFileForDownload, listFilesPage, PAGE_SIZES } from "~/models/file-jobs.server";
import { portalDownloadLink } from "~/services/storage/download-link.server";
import { storedObjectState } from "~/services/storage.server";
import { formatFileTimestamp } from "~/shared/dates";
import { Alert } from "~/shared/ui/alert";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { useHydrated } from "~/shared/ui/use-hydrated";

export const meta: MetaFunction = () => [{ title: jobTexts.filesTitle }];

/**
 * /repo/format: every uploaded file (original name, user, time of its last status change as
 * 'D MMM YYYY H:mm'), 20 or 40 per page with the total from the same loader, and a download per row.
 * Download = POST intent=download: the server checks the object exists, then sends the browser to the
 * portal's 5-minute link /download/{token}, which checks again when followed (download-link.server.ts). A
 * missing record or object, or a storage failure, at either step shows "Ocorreu um erro ao fazer o download."
 * on this page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/repo.format", request);
  const { page, pageSize } = parseListParams(new URL(request.url));
  const result = await listFilesPage({ page, pageSize });
  return {
    rows: result.items.map((f) => ({
      id: f.id,
      originalName: f.originalName,
      user: f.user,
      timestamp: formatFileTimestamp(f.statusChangeDate),
    })),
    total: result.total,
    page: result.page,
    pageSize: result.pageSize,
    pageSizes: [...PAGE_SIZES],
  };
}

const downloadSchema = z.object({
  intent: z.literal("download"),
  fileId: z.string().trim().min(1).max(ID_PARAM_MAX),
  // "fetch" when the page's script sent it (answer with the link), else a plain form post (redirect).
  mode: z.enum(["fetch", "document"]).catch("document"),
});

type DownloadResult = { ok: true; url: string; id: string } | { ok: false; error: string };

export async function action({ request }: ActionFunctionArgs) {
  await requireRouteAccess("routes/repo.format", request);
  const form = await request.formData().catch(() => null);
  const parsed = downloadSchema.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success) return data<DownloadResult>({ ok: false, error: messages.badRequest }, { status: 400 });
  const file = await findFileForDownload(parsed.data.fileId);
  const found = file ? await storedObjectState(file.bucket, file.originalFile) : "missing";
  const url =
    file && found === "present"
      ? linkOrNull(() => portalDownloadLink(file.bucket, file.originalFile, file.originalName))
      : null;
  if (!url)
    return data<DownloadResult>(
      { ok: false, error: messages.downloadFailed },
      { status: found === "missing" ? 404 : 502 },
    );
  if (parsed.data.mode === "fetch") return data<DownloadResult>({ ok: true, url, id: crypto.randomUUID() });
  return redirect(url);
}

/** The link, or null when the stored key is refused (a record whose key points outside the store). */
function linkOrNull(issue: () => string): string | null {
  try {
    return issue();
  } catch {
    return null;
  }
}

type Row = { id: string; originalName: string; user: string; timestamp: string };

export default function FileRepositoryPage() {
  const list = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const fetcher = useFetcher<DownloadResult>({ key: "file-download" });
  const hydrated = useHydrated();

  // The server answered with a link: follow it (the response is an attachment, the page stays).
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) window.location.assign(fetcher.data.url);
  }, [fetcher.state, fetcher.data]);

  const FetcherForm = fetcher.Form;
  const columns = useMemo<ColumnDef<Row, unknown>[]>(
    () => [
      { id: "originalName", header: jobTexts.columnOriginalName, cell: ({ row }) => row.original.originalName },
      { id: "user", header: jobTexts.columnUser, cell: ({ row }) => row.original.user },
      {
        id: "timestamp",
        header: jobTexts.columnTimestamp,
        cell: ({ row }) => <span className="job-date">{row.original.timestamp}</span>,
      },
      {
        id: "download",
        header: () => <span className="visually-hidden">{jobTexts.download}</span>,
        cell: ({ row }) => (
          <FetcherForm method="post" className="job-retry">
            <input type="hidden" name="intent" value="download" />
            <input type="hidden" name="fileId" value={row.original.id} />
            <input type="hidden" name="mode" value={hydrated ? "fetch" : "document"} />
            <button
              type="submit"
              className="button button--secondary button--small"
              aria-label={jobTexts.downloadOf(row.original.originalName)}
            >
              {jobTexts.download}
            </button>
          </FetcherForm>
        ),
      },
    ],
    [FetcherForm, hydrated],
  );

  const fetchError = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  const documentError = actionData && !actionData.ok ? actionData.error : null;
  const error = fetchError ?? (fetcher.data ? null : documentError);

  return (
    <section className="job-page">
      <h1>{jobTexts.filesTitle}</h1>
      <div className="job-page__alerts">{error ? <Alert tone="error">{error}</Alert> : null}</div>
      <DataTable
        columns={columns}
        rows={list.rows}
        getRowId={(row) => row.id}
        rowCount={list.total}
        page={list.page}
        pageSize={list.pageSize}
        pageSizeOptions={list.pageSizes}
        emptyText={jobTexts.emptyFiles}
        caption={jobTexts.filesCaption}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
