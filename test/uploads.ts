import { Readable } from "node:stream";
import type ExcelJS from "exceljs";
import { getDb } from "~/db.server";
import { findFileById, registerFile } from "~/models/file-jobs.server";
import type { FileTarget } from "~/models/files.fields";
import type { PermissionType } from "~/models/users.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { generateStorageKey, getLocalStore, LOCAL_BUCKET } from "~/services/storage.server";
import { grantPermission, TEST_UPLOADER } from "./upload-fixtures";

/** Files sent to the portal from a test, as a user's upload or a workbook sent back would arrive. */

export type UploadOptions = {
  /** The uploader; TEST_UPLOADER unless told. */
  user?: string;
  /**
   * The permission the uploader is given first. Unless told, TEST_UPLOADER is made a SYSTEM ADMIN (who may load
   * every template) and any other user keeps the rights the test gave it; null gives none.
   */
  grant?: PermissionType | null;
  /** Where the file is meant to go (documents, reports…); none for a template's data. */
  target?: FileTarget;
};

/** Stores bytes in the local store and registers them as a job, as an upload would. */
export async function storeUpload(
  originalName: string,
  content: Buffer | string,
  options: UploadOptions = {},
): Promise<{ id: Awaited<ReturnType<typeof registerFile>>; key: string }> {
  const user = options.user ?? TEST_UPLOADER;
  const grant = options.grant === undefined ? (user === TEST_UPLOADER ? "SYSTEM ADMIN" : null) : options.grant;
  const key = generateStorageKey(originalName);
  await getLocalStore().putStream(key, Readable.from([Buffer.from(content)]), { maxBytes: 1e9 });
  if (grant) await grantPermission(await getDb(), user, grant);
  const id = await registerFile({
    originalName,
    key,
    bucket: LOCAL_BUCKET,
    user,
    ...(options.target ? { target: options.target } : {}),
  });
  return { id, key };
}

/** How the worker that takes the job is named and how often it reports progress. */
export type TestWorker = { name: string; progressIntervalMs: number };
const DEFAULT_WORKER: TestWorker = { name: "test-worker", progressIntervalMs: 50 };

/** Uploads, then lets a worker take the next job: the job's outcome and the file's record after it. */
export async function uploadAndProcess(
  originalName: string,
  content: Buffer | string,
  options: UploadOptions & { worker?: TestWorker } = {},
) {
  const { id, key } = await storeUpload(originalName, content, options);
  const worker = options.worker ?? DEFAULT_WORKER;
  const outcome = await processNextJob({ ...worker, leaseMs: 60_000 });
  const file = await findFileById(id);
  return { id, key, outcome, file };
}

/** The content type of an .xlsx file. */
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A workbook sent back to an Excel import route: a multipart POST to `url` with the workbook as `arquivo`. */
export async function workbookPost(
  workbook: ExcelJS.Workbook,
  url: string,
  fileName: string,
  type?: string,
): Promise<Request> {
  const bytes = await workbook.xlsx.writeBuffer();
  const form = new FormData();
  form.set("arquivo", new File([bytes], fileName, type ? { type } : undefined));
  return new Request(url, { method: "POST", body: form });
}

/**
 * Files of the repository, as records of finished uploads named `names` (a fiscal item names its worksheet and
 * document, which must be there).
 */
export async function repositoryFiles(names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await (await getDb()).collection("files").insertMany(
    names.map((name) => ({
      originalName: name,
      originalFile: `2026/01/${name}`,
      bucket: "local",
      user: "a@b.c",
      status: 0,
      progress: 100,
      statusChangeDate: new Date(),
    })),
  );
}
