import crypto from "node:crypto";
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { messages, reportsTexts as t } from "~/messages";
import { addRowFile, cockpitTable, countRowFiles, findRowFile, saveComment } from "~/models/cockpit.server";
import { accountTree, listAccounts } from "~/models/ledger.server";
import {
  BUSINESS_UNITS,
  COCKPIT_COMMENT_MAX,
  COCKPIT_FILE_EXTENSIONS,
  COCKPIT_FILE_MAX_BYTES,
  COCKPIT_FILES_PER_ROW,
} from "~/models/reports.fields";
import { recordEdit } from "~/platform/audit/data-events.server";
import type { AuditActorInput } from "~/platform/audit/record.server";
import { ID_PARAM_MAX } from "~/shared/limits";
import { isMonthKey, monthOfDate, monthShortLabel, monthStartOfKey } from "~/shared/months";
import { readCockpitParams } from "./cockpit-params.server";
import { contentTypeOf, documentSink } from "./documents-store.server";
import { answerDownload, downloadFailure, downloadFields } from "./download.server";
import { readSmallMultipart } from "./small-multipart.server";

/** The loader and action behind /ij/cockpit_preview (the route keeps the access checks and the page). */

/** The table of the URL's unit, report, month and categories, and the row whose details are open (`row`). */
export async function loadCockpitPreview(request: Request) {
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
  period: z.string().refine(isMonthKey),
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
  period: z.string().refine(isMonthKey),
  fileId: z.string().min(1).max(ID_PARAM_MAX),
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

/** A file attached to a row (multipart): checked, stored in the document store, then recorded. */
async function uploadRowFile(request: Request, email: string, actor: AuditActorInput) {
  const form = await readSmallMultipart(request, COCKPIT_FILE_MAX_BYTES);
  const fileRule = t.fileRejected(COCKPIT_FILE_EXTENSIONS.join(", "), COCKPIT_FILE_MAX_BYTES / 1024 / 1024);
  if (!form.ok)
    return fail(form.reason === "too-large" ? fileRule : messages.badRequest, form.reason === "too-large" ? 413 : 400);
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
      user: email,
      createdAt: new Date(),
    });
  } catch (error) {
    await sink.remove(key).catch(() => undefined);
    throw error;
  }
  await auditedCockpitEdit(actor, request, "file", parsed.data.unit, parsed.data.period);
  return redirect(back(request));
}

/** The page's posts: a row's file (multipart), a file's download (intent=download) or a row's comment. */
/** Audits a row's comment or file saved, with the cockpit on that unit and month (where the row shows them). */
function auditedCockpitEdit(
  actor: AuditActorInput,
  request: Request,
  what: "comment" | "file",
  unit: string,
  period: string,
) {
  return recordEdit({
    actor,
    dataset: "cockpit",
    screen: "/ij/cockpit_preview",
    rows: 1,
    historyLink: back(request),
    details: { what, unit, period },
  });
}

export async function cockpitPreviewAction(request: Request, email: string, actor: AuditActorInput = { email }) {
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return uploadRowFile(request, email, actor);
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
    user: email,
  });
  await auditedCockpitEdit(actor, request, "comment", parsed.data.unit, parsed.data.period);
  return redirect(back(request));
}
