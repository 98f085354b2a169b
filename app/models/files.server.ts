import type { ObjectId } from "mongodb";
import type { IndexDeclaration } from "./indexes";

/** Uploaded files; each file is also its processing job (spec 000 §3 "File or job"). */

export const FILES = "files";

/** status 0 is ok, any other value is an error; progress 100 is complete. */
export const FILE_STATUS_OK = 0;
export const FILE_PROGRESS_DONE = 100;

export type FileRecord = {
  _id?: ObjectId;
  originalName: string;
  /** The stored object key: a generated unique name that keeps the original extension. */
  originalFile: string;
  bucket: string;
  /** E-mail of the uploader. */
  user: string;
  clientName: string;
  statusChangeDate: Date;
  createdAt: Date;
  status: number;
  /** 0-100. */
  progress: number;
  message: string;
  agent: string;
  /** Worker lease: while in the future, another worker must not claim the job. */
  leaseUntil: Date | null;
  attempts: number;
};

export const indexes: IndexDeclaration[] = [
  { collection: FILES, key: { statusChangeDate: -1, _id: -1 }, options: { name: "statusChangeDate_desc" } },
  { collection: FILES, key: { user: 1, statusChangeDate: -1, _id: -1 }, options: { name: "user_statusChangeDate_desc" } },
  { collection: FILES, key: { status: 1, progress: 1, leaseUntil: 1 }, options: { name: "worker_claim" } },
  // One record per stored object: a double submit of /api/files/register cannot create two jobs.
  { collection: FILES, key: { bucket: 1, originalFile: 1 }, options: { name: "bucket_originalFile_unique", unique: true } },
];
