/**
 * `portal import <file> [--user e-mail] [--target data|explorer|reports]`: the operator's upload. The file is streamed
 * into the configured store (DATA_DIR/uploads or the S3 bucket) and registered as a job exactly as an upload through
 * /captura/manual is, then processed by the worker's own pipeline (ingestClaimedFile) in this process, with its
 * progress (percentage, rows read) on the terminal. Should another worker take the job first (a web process with
 * its in-process worker), the command follows that worker's progress instead. Exit code 0 when every row was OK, 1
 * when the file was refused or had NOK rows.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { ObjectId } from "mongodb";
import { z } from "zod";
import { registerPortalDatasets } from "../app/datasets.server";
import { claimNextJob, DEFAULT_LEASE_MS, defaultWorkerName, findFileById } from "../app/models/file-jobs.server";
import { FILE_TARGETS } from "../app/models/files.fields";
import { FILE_PROGRESS_DONE, FILE_STATUS_OK } from "../app/models/files.server";
import { ingestClaimedFile } from "../app/platform/import/ingest.server";
import { announceJobEnded } from "../app/platform/import/job-notices.server";
import { registerUpload, uploadTarget } from "../app/platform/import/upload.server";
import {
  assertUploadAllowed,
  deleteObject,
  generateStorageKey,
  UploadRejectedError,
  uploadLimits,
} from "../app/services/storage.server";
import { splitArgs, UsageError, zodMessage } from "./cli-support";

export const IMPORT_USAGE = "portal import <file> [--user <e-mail>] [--target data|explorer|reports]";

/** Who the job is recorded for when --user is not given (the jobs list shows it as the uploader). */
export const CLI_UPLOADER = "portal-cli@portal.local";

const importArgs = z.object({
  file: z.string().min(1, "the file to import is missing"),
  user: z.string().trim().toLowerCase().email("--user must be an e-mail address").max(254).optional(),
  target: z
    .enum(FILE_TARGETS, { errorMap: () => ({ message: `--target must be one of ${FILE_TARGETS.join(", ")}` }) })
    .optional(),
});

export type ImportOptions = {
  /** How often the job's progress is shown (and written, when this process runs it). */
  progressIntervalMs?: number;
  leaseMs?: number;
};

export type ImportResult = { fileId: string; status: number; message: string; nokRows: number };

/** NOK rows named in a finished job's message ("1.234 linhas OK, 56 NOK"), for a job another worker finished. */
function nokOfMessage(message: string): number {
  const match = /([\d.]+) NOK/.exec(message);
  return match ? Number(match[1].replace(/\./g, "")) : 0;
}

/** Streams the file into the configured store under a new key; returns where. */
async function store(file: string, size: number): Promise<{ bucket: string; key: string }> {
  const limits = uploadLimits();
  assertUploadAllowed(path.basename(file), size, limits);
  const key = generateStorageKey(path.basename(file));
  const target = uploadTarget(limits.maxBytes);
  await target.put(key, createReadStream(file));
  return { bucket: target.bucket, key };
}

/** Prints the job's progress from its record until it is finished; returns the finished record's outcome. */
async function follow(
  id: ObjectId,
  print: (line: string) => void,
  intervalMs: number,
  until?: Promise<unknown>,
): Promise<{ status: number; message: string }> {
  let last = "";
  let done = false;
  const settle = (then: () => void) => until?.then(then, then);
  settle(() => (done = true));
  for (;;) {
    const record = await findFileById(id);
    if (!record) throw new Error("the job's record disappeared while it was processed");
    const finished = record.progress >= FILE_PROGRESS_DONE;
    if (!finished && record.message) {
      const line = `  ${String(Math.floor(record.progress)).padStart(3)}% · ${record.message}`;
      if (line !== last) print(line);
      last = line;
    }
    if (finished || done) return { status: record.status, message: record.message };
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, intervalMs);
      settle(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** Runs `portal import`; the exit code: 0 every row OK, 1 refused or with NOK rows. */
export async function importCommand(
  args: readonly string[],
  print: (line: string) => void,
  options: ImportOptions = {},
): Promise<{ code: number; result: ImportResult }> {
  registerPortalDatasets();
  const { options: named, positional } = splitArgs(args, ["--user", "--target"]);
  if (positional.length > 1) throw new UsageError(`import takes one file (got ${positional.length}). ${IMPORT_USAGE}`);
  const parsed = importArgs.safeParse({
    file: positional[0] ?? "",
    user: named.get("--user"),
    target: named.get("--target"),
  });
  if (!parsed.success) throw new UsageError(`${zodMessage(parsed.error)}. ${IMPORT_USAGE}`);
  const { file, target } = parsed.data;
  // Without --user the operator loads the file with the operator's rights; with it, with that account's rights as the
  // worker finds them (docs/access.md "Upload targets").
  const user = parsed.data.user ?? CLI_UPLOADER;
  const operator = parsed.data.user === undefined;

  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new Error(`${file}: no such file`);
  const originalName = path.basename(file);
  let stored: { bucket: string; key: string };
  try {
    stored = await store(file, info.size);
  } catch (error) {
    if (error instanceof UploadRejectedError) throw new Error(`${originalName}: ${error.message}`);
    throw error;
  }
  print(`Stored ${originalName} (${info.size.toLocaleString("pt-BR")} bytes) as ${stored.bucket}/${stored.key}.`);
  const registered = await registerUpload({
    originalName,
    key: stored.key,
    bucket: stored.bucket,
    user,
    ...(target ? { target } : {}),
    ...(operator ? { operator } : {}),
  });
  if (!registered.ok) {
    await deleteObject(stored.bucket, stored.key).catch(() => undefined);
    throw new Error(`${originalName}: ${registered.failure.detail}`);
  }
  const id = new ObjectId(registered.id);
  print(`Registered job ${registered.id} for ${user}.`);

  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const intervalMs = options.progressIntervalMs ?? 1_000;
  const claim = await claimNextJob({ agent: `cli:${defaultWorkerName()}`, leaseMs, only: id });
  let outcome: { status: number; message: string; nokRows: number };
  if (claim) {
    const work = ingestClaimedFile(claim, { leaseMs, progressIntervalMs: Math.min(intervalMs, 2_000) });
    const [done] = await Promise.all([work, follow(id, print, intervalMs, work)]);
    // In the audit trail as the operator (or --user with that account's type), who is told as the uploader.
    await announceJobEnded(claim, done, "cli");
    if (done.kind === "lease-lost") {
      print("Another worker took the job over; following it.");
      const end = await follow(id, print, intervalMs);
      outcome = { ...end, nokRows: nokOfMessage(end.message) };
    } else outcome = { status: done.status, message: done.message, nokRows: done.nokRows };
  } else {
    print("A running worker took the job; following it.");
    const end = await follow(id, print, intervalMs);
    outcome = { ...end, nokRows: nokOfMessage(end.message) };
  }
  const ok = outcome.status === FILE_STATUS_OK && outcome.nokRows === 0;
  print(`${ok ? "OK" : "NOK"}: ${outcome.message}`);
  return { code: ok ? 0 : 1, result: { fileId: registered.id, ...outcome } };
}
