import { messages } from "~/messages";
import type { FileTarget } from "~/models/files.fields";
import { type ColumnDef, DataTable, type DataTableColumnMeta } from "~/shared/ui/data-table";
import { jobTexts, uploadScreenTexts as t, uploadTargetTexts as targetTexts } from "./texts";
import { truncateJobMessage } from "./truncate";
import { TruncatedText } from "./truncated-text";
import { formatEta, jobEnded, type UploadItem } from "./upload-list";

/**
 * A sent file's state is its job's once that ended: refused or failed in words (not only by colour), else finished,
 * also when the job refused some rows (said beside it).
 */
function stateLabel(item: UploadItem): string {
  if (item.status === "failed") return t.stateFailed;
  if (item.status !== "finished") return t.stateActive;
  if (item.job?.state === "refused") return jobTexts.stateRefused;
  if (item.job?.state === "failed") return jobTexts.stateFailed;
  return t.stateFinished;
}

function jobNote(item: UploadItem): string | null {
  if (item.status !== "finished" || !item.job) return null;
  if (!jobEnded(item.job)) return item.job.state === "running" ? t.jobRunning : t.jobWaiting;
  return item.job.message || null;
}

function StateCell({ item }: { item: UploadItem }) {
  const note = jobNote(item);
  return (
    <>
      <span className={`upload-state upload-state--${item.job && jobEnded(item.job) ? item.job.state : item.status}`}>
        {stateLabel(item)}
      </span>
      {item.status === "finished" && item.job?.state === "partial" && item.job.refusedRows ? (
        <span className="upload-state__refused">{jobTexts.refusedRows(item.job.refusedRows)}</span>
      ) : null}
      {note ? <TruncatedText full={note} cut={truncateJobMessage(note)} className="upload-table__job" /> : null}
      {item.error ? (
        <span className="upload-table__error">
          {messages.uploadFailure(item.error)}
          {item.errorDetail ? ` ${item.errorDetail}` : ""}
        </span>
      ) : null}
    </>
  );
}

type Actions = { onRetry: (item: UploadItem) => void; onRemove: (item: UploadItem) => void };

function ActionsCell({ item, onRetry, onRemove }: { item: UploadItem } & Actions) {
  return (
    <div className="upload-table__actions">
      {item.status === "failed" ? (
        <button
          type="button"
          className="button button--secondary button--small"
          aria-label={t.retryOf(item.name)}
          onClick={() => onRetry(item)}
        >
          {t.retry}
        </button>
      ) : null}
      <button
        type="button"
        className="button button--secondary button--small"
        aria-label={t.removeOf(item.name)}
        onClick={() => onRemove(item)}
      >
        {t.remove}
      </button>
    </div>
  );
}

function uploadColumns(targetOf: (item: UploadItem) => FileTarget | undefined, actions: Actions) {
  const columns: ColumnDef<UploadItem, unknown>[] = [
    {
      id: "name",
      header: t.columnName,
      meta: { rowHeader: true, cellClassName: "upload-table__name" } satisfies DataTableColumnMeta<UploadItem>,
      cell: ({ row }) => {
        const target = targetOf(row.original);
        return (
          <>
            {row.original.name}
            {target ? (
              <span className="upload-table__target">{targetTexts.ofItem(targetTexts.options[target].label)}</span>
            ) : null}
          </>
        );
      },
    },
    {
      id: "progress",
      header: t.columnProgress,
      cell: ({ row }) => (
        <span className="job-progress">
          <progress max={100} value={row.original.progress} aria-label={t.progressOf(row.original.name)} />
          <span className="upload-table__percent">{row.original.progress}%</span>
        </span>
      ),
    },
    {
      id: "eta",
      header: t.columnEta,
      meta: { cellClassName: "upload-table__eta" } satisfies DataTableColumnMeta<UploadItem>,
      cell: ({ row }) => (row.original.status === "uploading" ? formatEta(row.original.estimatedTime) : "—"),
    },
    { id: "state", header: t.columnState, cell: ({ row }) => <StateCell item={row.original} /> },
    {
      id: "actions",
      header: () => <span className="visually-hidden">{t.columnActions}</span>,
      cell: ({ row }) => <ActionsCell item={row.original} {...actions} />,
    },
  ];
  return columns;
}

/**
 * The files of this visit's uploads, kept in the browser: name (with the "Tipo de carga" it was sent with), progress,
 * time left, state (the transfer's, then its job's) and Retry/Remove. Browser tests find a row by `data-upload-name`.
 */
export function UploadTable({
  items,
  targetOf,
  ...actions
}: { items: UploadItem[]; targetOf: (item: UploadItem) => FileTarget | undefined } & Actions) {
  return (
    <DataTable
      columns={uploadColumns(targetOf, actions)}
      rows={items}
      getRowId={(item) => item.id}
      paging={false}
      emptyText={t.empty}
      caption={t.tableCaption}
      className="upload-table"
      rowAttributes={(item) => ({
        "data-upload-name": item.name,
        "data-status": item.status,
        "data-job": item.job?.state,
      })}
    />
  );
}
