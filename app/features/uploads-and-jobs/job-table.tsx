import { Form, Link, useFetcher, useLocation, useNavigation } from "@remix-run/react";
import { useMemo, useState } from "react";
import { truncateJobMessage, truncateJobName } from "~/features/uploads-and-jobs/truncate";
import { PageDialog } from "~/shared/forms/page-dialog";
import { Alert } from "~/shared/ui/alert";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { useHydrated } from "~/shared/ui/use-hydrated";
import type { JobRow } from "./job-row";
import { JobStatusIcon } from "./status-icon";
import { jobTexts } from "./texts";
import { TruncatedText } from "./truncated-text";
import "./jobs.css";

export type JobListData = {
  rows: JobRow[];
  total: number;
  page: number;
  pageSize: number;
  pageSizes: number[];
  /** The file a notice's link named, when this page holds it (its row is marked). */
  highlightedJobId?: string | null;
};

type RetryResult = { ok: false; error: string } | undefined;

/** A failed job's Retry button: a POST the server decides on (owner or SYSTEM ADMIN). */
function RetryButton({ row }: { row: JobRow }) {
  const fetcher = useFetcher<RetryResult>({ key: `retry-${row.id}` });
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" className="job-retry">
      <input type="hidden" name="intent" value="retry" />
      <input type="hidden" name="fileId" value={row.id} />
      <button
        type="submit"
        className="button button--secondary button--small"
        disabled={busy}
        aria-label={`${jobTexts.retry}: ${row.name}`}
      >
        {jobTexts.retry}
      </button>
    </fetcher.Form>
  );
}

/** Errors of the row-level Retry fetchers, shown above the table. */
export function RetryErrors({ rows, actionError }: { rows: JobRow[]; actionError?: string | null }) {
  return (
    <>
      {actionError ? <Alert tone="error">{actionError}</Alert> : null}
      {rows
        .filter((r) => r.canRetry)
        .map((r) => (
          <RetryError key={r.id} id={r.id} />
        ))}
    </>
  );
}

function RetryError({ id }: { id: string }) {
  const fetcher = useFetcher<RetryResult>({ key: `retry-${id}` });
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return error ? <Alert tone="error">{error}</Alert> : null;
}

/** The server's question of a "Tentar novamente todos" posted without confirmation (JobListActionData). */
export type RetryAllConfirm = { count: number; question: string; note?: string };

/**
 * "Tentar novamente todos": the button, when the list holds failed jobs the viewer may retry (`count`), its
 * confirmation naming the count, and the progress of the batch the URL follows. Without JavaScript the button posts,
 * the server answers the question (`confirm`) and the page shows it as a static dialog whose form posts confirm=1;
 * with it, the button opens the same dialog at once (the Radix dialog once loaded).
 */
export function RetryAll({
  count,
  confirm,
  batch,
}: {
  count: number;
  confirm: RetryAllConfirm | null;
  batch: { total: number; finished: number; failed: number; text: string } | null;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  const navigation = useNavigation();
  const [askedFor, setAskedFor] = useState<number | null>(null);
  const [dismissed, setDismissed] = useState<RetryAllConfirm | null>(null);
  const serverAsks = confirm !== null && confirm !== dismissed;
  const shownCount = serverAsks ? confirm.count : askedFor;
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "retry-all";
  const listUrl = `${location.pathname}${location.search}`;
  const close = () => {
    setAskedFor(null);
    if (confirm) setDismissed(confirm);
  };
  return (
    <div className="job-retry-all">
      {count > 0 ? (
        <Form
          method="post"
          onSubmit={(event) => {
            // With JavaScript the question needs no round trip: the loader counted the jobs.
            event.preventDefault();
            setAskedFor(count);
          }}
        >
          <input type="hidden" name="intent" value="retry-all" />
          <button type="submit" className="button button--secondary" disabled={busy}>
            {jobTexts.retryAll}
          </button>
        </Form>
      ) : null}
      {batch ? (
        <p className="job-retry-all__progress" role="status">
          <progress max={batch.total} value={batch.finished} aria-hidden="true" />
          <span>{batch.text}</span>
        </p>
      ) : null}
      <PageDialog
        open={shownCount !== null}
        onClose={close}
        title={jobTexts.retryAllQuestion(shownCount ?? 0)}
        description={jobTexts.retryAllExplain}
      >
        {serverAsks && confirm.note ? <p className="job-retry-all__note">{confirm.note}</p> : null}
        <Form method="post" onSubmit={() => setAskedFor(null)}>
          <input type="hidden" name="intent" value="retry-all" />
          <input type="hidden" name="confirm" value="1" />
          <input type="hidden" name="count" value={String(shownCount ?? 0)} />
          <div className="dialog__footer">
            <Link
              className="button button--secondary"
              to={listUrl}
              replace
              onClick={(event) => {
                if (!hydrated) return;
                event.preventDefault();
                close();
              }}
            >
              {jobTexts.retryAllCancel}
            </Link>
            <button type="submit" className="button button--primary" disabled={busy}>
              {jobTexts.retryAllConfirm}
            </button>
          </div>
        </Form>
      </PageDialog>
    </div>
  );
}

/**
 * The job list (spec 000 §2, §4, §9) on the shared server-paged table. The file name comes first and its state (in
 * words) right after it, so a phone's first screen (390 px) says which file and whether it failed; on a narrow
 * screen the name column stays pinned while the row scrolls sideways (jobs.css).
 */
export function JobTable({
  data,
  caption,
  showUser = true,
}: {
  data: JobListData;
  caption: string;
  showUser?: boolean;
}) {
  const columns = useMemo<ColumnDef<JobRow, unknown>[]>(() => {
    const list: ColumnDef<JobRow, unknown>[] = [
      {
        id: "name",
        header: jobTexts.columnName,
        cell: ({ row }) => (
          <TruncatedText full={row.original.name} cut={truncateJobName(row.original.name)} className="job-name" />
        ),
      },
      {
        id: "state",
        header: jobTexts.columnState,
        cell: ({ row }) => (
          <span className="job-state" data-kind={row.original.kind}>
            <JobStatusIcon kind={row.original.kind} />
            <span>{row.original.state}</span>
            {row.original.refusedRows > 0 ? (
              <span className="job-state__refused">{jobTexts.refusedRows(row.original.refusedRows)}</span>
            ) : null}
          </span>
        ),
      },
      // What the user can do about a job comes right after its state: at 1366 px the later columns scroll sideways.
      {
        id: "actions",
        header: () => <span className="visually-hidden">{jobTexts.columnActions}</span>,
        cell: ({ row }) =>
          row.original.nokRowsHref || row.original.fixRowsHref || row.original.canRetry ? (
            <span className="job-actions">
              {row.original.nokRowsHref && row.original.nokRowsDownload ? (
                // A file, not a page: a plain link the browser downloads, with or without JavaScript.
                <a
                  href={row.original.nokRowsHref}
                  download
                  className="button button--secondary button--small"
                  aria-label={jobTexts.nokRowsDownloadOf(row.original.name)}
                >
                  {jobTexts.nokRows}
                </a>
              ) : row.original.nokRowsHref ? (
                <Link
                  to={row.original.nokRowsHref}
                  className="button button--secondary button--small"
                  aria-label={jobTexts.nokRowsOf(row.original.name)}
                >
                  {jobTexts.nokRows}
                </Link>
              ) : null}
              {row.original.fixRowsHref ? (
                <a
                  href={row.original.fixRowsHref}
                  download
                  className="button button--secondary button--small"
                  aria-label={jobTexts.fixRowsOf(row.original.name)}
                >
                  {jobTexts.fixRows}
                </a>
              ) : null}
              {row.original.canRetry ? <RetryButton row={row.original} /> : null}
            </span>
          ) : null,
      },
    ];
    if (showUser) list.push({ id: "user", header: jobTexts.columnUser, cell: ({ row }) => row.original.user });
    list.push(
      {
        id: "date",
        header: jobTexts.columnDate,
        cell: ({ row }) => <span className="job-date">{row.original.date}</span>,
      },
      {
        id: "progress",
        header: jobTexts.columnProgress,
        cell: ({ row }) => (
          <span className="job-progress">
            <progress
              max={100}
              value={row.original.progress}
              aria-label={`${jobTexts.columnProgress}: ${row.original.name}`}
            />
            <span>{`${row.original.progress}%`}</span>
          </span>
        ),
      },
      {
        id: "message",
        header: jobTexts.columnMessage,
        cell: ({ row }) => (
          <TruncatedText
            full={row.original.message}
            cut={truncateJobMessage(row.original.message)}
            className="job-message"
          />
        ),
      },
      { id: "agent", header: jobTexts.columnAgent, cell: ({ row }) => row.original.agent },
    );
    return list;
  }, [showUser]);

  return (
    <div className="job-table">
      <DataTable
        columns={columns}
        rows={data.rows}
        getRowId={(row) => row.id}
        rowCount={data.total}
        page={data.page}
        pageSize={data.pageSize}
        pageSizeOptions={data.pageSizes}
        emptyText={jobTexts.emptyJobs}
        caption={caption}
        highlightedRowId={data.highlightedJobId ?? null}
      />
    </div>
  );
}
