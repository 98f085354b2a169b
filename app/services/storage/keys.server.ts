import crypto from "node:crypto";
import path from "node:path";
import { messages } from "~/messages";
import { formatSize } from "~/shared/numbers";

/** Why an upload was refused before any byte was kept. */
export class UploadRejectedError extends Error {
  constructor(
    /** size: over the per-file limit; count: too many files in one post; parts: a multipart upload that does not match its plan. */
    public readonly reason: "extension" | "size" | "empty-name" | "count" | "parts",
    message: string,
  ) {
    super(message);
    this.name = "UploadRejectedError";
  }
}

/** A file over the per-file limit. */
export function tooLargeError(maxBytes: number): UploadRejectedError {
  return new UploadRejectedError("size", messages.uploadTooLarge(formatSize(maxBytes)));
}

/** The HTTP status of a refusal: 413 too large or too many, 415 a refused extension, else 400. */
export function rejectionStatus(error: UploadRejectedError): number {
  if (error.reason === "size" || error.reason === "count") return 413;
  return error.reason === "extension" ? 415 : 400;
}

/** The lower-cased extension of a file name, without the dot ("" when there is none). */
export function extensionOf(fileName: string): string {
  const base = path.posix.basename(fileName.replaceAll("\\", "/"));
  const dot = base.lastIndexOf(".");
  if (dot <= 0 || dot === base.length - 1) return "";
  return base.slice(dot + 1).toLowerCase();
}

/**
 * Refuses a file by name and declared size before anything is stored.
 * `declaredBytes` is the Content-Length (or the size the browser reported) when known.
 */
export function assertUploadAllowed(
  fileName: string,
  declaredBytes: number | undefined,
  limits: { maxBytes: number; extensions: readonly string[] },
): string {
  if (!fileName?.trim()) throw new UploadRejectedError("empty-name", "Nome de arquivo ausente.");
  const ext = extensionOf(fileName);
  if (!ext || !limits.extensions.includes(ext)) {
    throw new UploadRejectedError(
      "extension",
      `Formato não suportado para processamento (.${ext || "sem extensão"}); envie um destes: ${limits.extensions.join(", ")}.`,
    );
  }
  if (declaredBytes !== undefined && declaredBytes > limits.maxBytes) {
    throw tooLargeError(limits.maxBytes);
  }
  return ext;
}

/**
 * The stored name: `yyyy/mm/<uuid>.<ext>`. Generated, never derived from user input beyond the
 * (allow-listed, lower-cased) extension, so it cannot address anything outside the store.
 */
export function generateStorageKey(originalName: string, now = new Date()): string {
  const ext = extensionOf(originalName);
  const yyyy = String(now.getUTCFullYear());
  const mm = String(now.getUTCMonth() + 1).padStart(2, "0");
  return `${yyyy}/${mm}/${crypto.randomUUID()}${ext ? `.${ext}` : ""}`;
}

/** The shape every key we generate has; anything else is refused by the stores. */
export const STORAGE_KEY_PATTERN = /^\d{4}\/\d{2}\/[0-9a-f-]{36}(\.[a-z0-9]{1,10})?$/;

export function isStorageKey(key: unknown): key is string {
  return typeof key === "string" && STORAGE_KEY_PATTERN.test(key);
}
