// Screen: Cockpit table: /ij/cockpit_preview (balance sheet or working capital, comments and files).
import crypto from "node:crypto";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { requireRouteAccess } from "~/features/access/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/reports-and-financial/reports.css";
import { cockpitSearch, readCockpitParams, REPORT_LABELS } from "~/features/reports-and-financial/cockpit-filters";
import {
  BUSINESS_UNITS,
  COCKPIT_COMMENT_MAX,
  COCKPIT_FILE_EXTENSIONS,
  COCKPIT_FILE_MAX_BYTES,
  COCKPIT_FILES_PER_ROW,
  formatAmount,
} from "~/models/reports.fields";
import { DownloadButton, useDownloadOutcome } from "~/features/reports-and-financial/download-button";
import { HeaderRow, HiddenFields } from "~/features/reports-and-financial/fields";
import { answerDownload, downloadFailure, downloadFields } from "~/features/reports-and-financial/download.server";
import { readSmallMultipart } from "~/features/reports-and-financial/small-multipart.server";
import { TreeToggle, useCollapsedRows, visibleInTree } from "~/features/reports-and-financial/tree-rows";
import { Alert } from "~/shared/ui/alert";
import { jobTexts, messages, reportsTexts as t } from "~/messages";
import { addRowFile, cockpitTable, countRowFiles, findRowFile, saveComment } from "~/models/cockpit.server";
import { accountTree, listAccounts } from "~/models/ledger.server";
import { monthOfDate, monthShortLabel, monthStartOfKey } from "~/shared/months";
import { contentTypeOf, documentSink } from "~/features/reports-and-financial/documents-store.server";

export const meta: MetaFunction = () => [{ title: t.cockpitPreviewTitle }];

/**
 * /ij/cockpit_preview: the balance-sheet (or working-capital) table of the chosen unit — the chosen month
 * beside the month before, Dif. $, Dif. %, Comments and Files, categories expandable to their accounts. A
 * row's details (`row` in the URL) hold its comment form and its files (upload, download).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.cockpit_preview", request);
  const url = new URL(request.url);
  const params = readCockpitParams(url);
  const month = monthStartOfKey(params.period);
  if (!params.unit || !month) {
    return data(
      { params, error: !params.unit ? t.unitRequired : t.periodRequired, table: null, selected: null },
      { status: 400 },
    );
  }
  const table = await cockpitTable({
    businessUnitID: params.unit,
    report: params.report,
    month,
    category1: params.category1,
    category2: params.category2,
    category3: params.category3,
  });
  const rowKey = url.searchParams.get("row");
  const selected = table.rows.find((r) => r.key === rowKey) ?? null;
  return {
    params,
    error: null,
    table: { ...table, months: table.months.map((month) => monthShortLabel(monthOfDate(month))) },
    selected: selected
      ? { key: selected.key, label: selected.label, comment: selected.comment, files: selected.files }
      : null,
  };
}

const target = {
  unit: z.enum(BUSINESS_UNITS),
  period: z.string().regex(/^\d{4}-\d{2}$/),
  rowKey: z.string().min(1).max(200),
};
const commentSchema = z.object({
  intent: z.literal("comment"),
  ...target,
  text: z.string().max(COCKPIT_COMMENT_MAX, t.commentTooLong(COCKPIT_COMMENT_MAX)),
});
const uploadSchema = z.object({ intent: z.literal("upload"), ...target });
const fileDownloadSchema = z.object({
  ...downloadFields,
  unit: z.enum(BUSINESS_UNITS),
  period: z.string().regex(/^\d{4}-\d{2}$/),
  fileId: z.string().min(1).max(100),
});

type ActionResult = { ok: false; error: string };
const fail = (error: string, status = 400) => data<ActionResult>({ ok: false, error }, { status });

/** Whether `rowKey` is a row of the chart (a category or an account): comments and files attach to real rows only. */
async function isChartRow(rowKey: string): Promise<boolean> {
  return accountTree(await listAccounts()).some((n) => n.key === rowKey);
}

const back = (request: Request) => {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
};

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.cockpit_preview", request);
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const form = await readSmallMultipart(request, COCKPIT_FILE_MAX_BYTES);
    const fileRule = t.fileRejected(COCKPIT_FILE_EXTENSIONS.join(", "), COCKPIT_FILE_MAX_BYTES / 1024 / 1024);
    if (!form.ok)
      return fail(
        form.reason === "too-large" ? fileRule : messages.badRequest,
        form.reason === "too-large" ? 413 : 400,
      );
    const parsed = uploadSchema.safeParse(form.fields);
    const month = parsed.success ? monthStartOfKey(parsed.data.period) : null;
    if (!parsed.success || !month || !(await isChartRow(parsed.data.rowKey))) return fail(t.rowNotFound);
    const file = form.file;
    const ext = file?.name.includes(".") ? file.name.slice(file.name.lastIndexOf(".") + 1).toLowerCase() : "";
    if (!file || file.bytes.length === 0 || !(COCKPIT_FILE_EXTENSIONS as readonly string[]).includes(ext))
      return fail(fileRule, 415);
    if ((await countRowFiles(parsed.data.unit, month, parsed.data.rowKey)) >= COCKPIT_FILES_PER_ROW)
      return fail(t.tooManyFiles(COCKPIT_FILES_PER_ROW), 409);
    const sink = await documentSink();
    const key = `documents/cockpit/${parsed.data.unit}/${parsed.data.period}/${crypto.randomUUID()}.${ext}`;
    await sink.put(key, file.bytes, contentTypeOf(key));
    try {
      await addRowFile({
        businessUnitID: parsed.data.unit,
        month,
        rowKey: parsed.data.rowKey,
        originalName: file.name.slice(0, 200),
        originalFile: key,
        bucket: sink.bucket,
        size: file.bytes.length,
        user: user.email,
        createdAt: new Date(),
      });
    } catch (error) {
      await sink.remove(key).catch(() => undefined);
      throw error;
    }
    return redirect(back(request));
  }
  const form = await request.formData().catch(() => null);
  const fields = form ? Object.fromEntries(form) : {};
  if (fields.intent === "download") {
    const parsed = fileDownloadSchema.safeParse(fields);
    const month = parsed.success ? monthStartOfKey(parsed.data.period) : null;
    if (!parsed.success || !month) return downloadFailure(400);
    const file = await findRowFile(parsed.data.unit, month, parsed.data.fileId);
    return answerDownload(
      file ? { bucket: file.bucket, key: file.originalFile, filename: file.originalName } : null,
      parsed.data.mode,
    );
  }
  const parsed = commentSchema.safeParse(fields);
  if (!parsed.success) {
    const tooLong = parsed.error.issues.find((i) => i.path[0] === "text");
    return fail(tooLong?.message ?? messages.badRequest);
  }
  const month = monthStartOfKey(parsed.data.period);
  if (!month || !(await isChartRow(parsed.data.rowKey))) return fail(t.rowNotFound);
  await saveComment({
    businessUnitID: parsed.data.unit,
    month,
    rowKey: parsed.data.rowKey,
    text: parsed.data.text.trim(),
    user: user.email,
  });
  return redirect(back(request));
}

const FETCHER = "cockpit-file-download";
const pct = (n: number | null) => (n === null ? "–" : `${formatAmount(n)}%`);

export default function CockpitPreviewPage() {
  const { params, error, table, selected } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const collapsed = useCollapsedRows();
  const downloadError = useDownloadOutcome(FETCHER, actionData && !actionData.ok ? actionData.error : null);
  const [comment, setComment] = useState(selected?.comment ?? "");
  const filterLink = `/ij/cockpit${cockpitSearch(params)}`;
  const detailsLink = (key: string | null) => `${location.pathname}${cockpitSearch(params, key ? { row: key } : {})}`;

  if (error || !table) {
    return (
      <section className="report-page">
        <h1>{t.cockpitPreviewTitle}</h1>
        <Alert tone="error">{error}</Alert>
        <Link to={filterLink}>{t.backToFilter}</Link>
      </section>
    );
  }
  const unit = params.unit ?? "";
  const period = params.period ?? "";
  return (
    <section className="report-page">
      <nav className="report-breadcrumb" aria-label="breadcrumb">
        <ol>
          <li>
            <Link to={filterLink}>{t.cockpitTitle}</Link>
          </li>
          <li aria-current="page">{REPORT_LABELS[params.report]}</li>
        </ol>
      </nav>
      <h1>
        {REPORT_LABELS[params.report]} · {unit}
      </h1>
      <div className="report-page__alerts">{downloadError ? <Alert tone="error">{downloadError}</Alert> : null}</div>
      {!table.hasData ? <Alert tone="info">{messages.noDataFound}</Alert> : null}
      <div className="tree-table scroll-area" tabIndex={0} role="region" aria-label={REPORT_LABELS[params.report]}>
        <table>
          <caption className="visually-hidden">{REPORT_LABELS[params.report]}</caption>
          <thead>
            <HeaderRow
              first={REPORT_LABELS[params.report]}
              numeric={[table.months[0], table.months[1], t.difAmount, t.difPercent]}
              extra={
                <>
                  <th scope="col">{t.comments}</th>
                  <th scope="col">{t.files}</th>
                </>
              }
            />
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr
                key={row.key}
                className={`tree-row tree-row--${row.kind}`}
                hidden={!visibleInTree(row, table.rows, collapsed.keys) || undefined}
                data-row-key={row.key}
              >
                <th
                  scope="row"
                  className={
                    row.kind === "category2" ? "tree-indent-1" : row.kind === "account" ? "tree-indent-2" : undefined
                  }
                >
                  {row.kind !== "account" ? (
                    <TreeToggle
                      label={row.label}
                      open={!collapsed.keys.has(row.key)}
                      onToggle={() => collapsed.toggle(row.key)}
                    />
                  ) : null}
                  {row.label}
                </th>
                <td className="report-num">{formatAmount(row.previous)}</td>
                <td className="report-num">{formatAmount(row.current)}</td>
                <td className="report-num">{formatAmount(row.difference)}</td>
                <td className="report-num">{pct(row.differencePercent)}</td>
                <td>
                  <span>{row.comment}</span>{" "}
                  <Link to={detailsLink(row.key)} preventScrollReset aria-label={t.rowDetailsOf(row.label)}>
                    {t.rowDetails}
                  </Link>
                </td>
                <td>
                  <RowFiles files={row.files} unit={unit} period={period} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {selected ? (
        <section className="row-details" aria-labelledby="row-details-title" key={selected.key}>
          <h2 id="row-details-title">{t.rowDetailsOf(selected.label)}</h2>
          {actionData && !actionData.ok ? <Alert tone="error">{actionData.error}</Alert> : null}
          <Form method="post" preventScrollReset>
            <HiddenFields fields={{ intent: "comment", unit, period, rowKey: selected.key }} />
            <div className="field">
              <label htmlFor="cockpit-comment">{t.commentLabel}</label>
              <textarea
                id="cockpit-comment"
                name="text"
                maxLength={COCKPIT_COMMENT_MAX}
                value={comment}
                onChange={(e) => setComment(e.target.value)}
              />
              <p className="report-muted" aria-live="polite">
                {t.commentCounter(comment.length, COCKPIT_COMMENT_MAX)}
              </p>
            </div>
            <button type="submit" className="button button--primary">
              {t.saveComment}
            </button>
          </Form>
          <h3>{t.files}</h3>
          {selected.files.length === 0 ? <p className="report-muted">{t.noFiles}</p> : null}
          <RowFiles files={selected.files} unit={unit} period={period} />
          <Form method="post" encType="multipart/form-data" preventScrollReset className="report-filters">
            <HiddenFields fields={{ intent: "upload", unit, period, rowKey: selected.key }} />
            <div className="field">
              <label htmlFor="cockpit-file">{t.attachFile}</label>
              <input
                id="cockpit-file"
                name="file"
                type="file"
                required
                accept={COCKPIT_FILE_EXTENSIONS.map((e) => `.${e}`).join(",")}
              />
            </div>
            <button type="submit" className="button button--secondary">
              {t.upload}
            </button>
          </Form>
          <p>
            <Link to={detailsLink(null)} preventScrollReset>
              {t.closeDetails}
            </Link>
          </p>
        </section>
      ) : null}
    </section>
  );
}

/** A row's attached files, each a download. */
function RowFiles({ files, unit, period }: { files: { id: string; name: string }[]; unit: string; period: string }) {
  return (
    <div className="report-actions">
      {files.map((f) => (
        <DownloadButton
          key={f.id}
          fetcherKey={FETCHER}
          fields={{ unit, period, fileId: f.id }}
          label={jobTexts.downloadOf(f.name)}
          text={f.name}
        />
      ))}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
