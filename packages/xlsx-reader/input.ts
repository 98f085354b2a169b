import crypto from "node:crypto";
import { read } from "node:fs";
import { type FileHandle, open, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { FileRefusedError, refusalMessages } from "./errors";
import { MB, type XlsxLimits } from "./limits";
import type { ZipInput } from "./zip";

/** The package as sent: in memory, or spooled to a temporary file and read by position. */

/** A package larger than this is kept in a temporary file while it is read, not in memory. */
export const SPOOL_FROM_BYTES = 16 * MB;

/** A package opened for reading: in memory, or in a temporary file (`fd`, for the reader's thread). */
export type OpenedPackage = ZipInput & { fd?: number; close(): Promise<void> };

/**
 * The package `source` sends, within `limits.packageBytes`: in memory up to `spoolFrom` bytes, past that in a
 * temporary file (removed from the directory as soon as it is opened, so nothing is left behind) read by position.
 */
export async function openXlsxPackage(
  source: Readable,
  limits: XlsxLimits,
  spoolFrom: number = SPOOL_FROM_BYTES,
  signal?: AbortSignal,
): Promise<OpenedPackage> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let file: FileHandle | null = null;
  try {
    for await (const chunk of source) {
      if (signal?.aborted) throw signal.reason;
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      bytes += buffer.length;
      if (bytes > limits.packageBytes) throw new FileRefusedError(refusalMessages.package(limits.packageBytes));
      if (file) await file.write(buffer);
      else chunks.push(buffer);
      if (!file && bytes > spoolFrom) {
        const name = path.join(os.tmpdir(), `portal-xlsx-${crypto.randomUUID()}.zip`);
        file = await open(name, "wx+", 0o600);
        await unlink(name);
        for (const kept of chunks.splice(0)) await file.write(kept);
      }
    }
  } catch (error) {
    await file?.close();
    throw error;
  }
  if (!file) return bufferInput(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  return handleInput(file, bytes);
}

/** A package in the temporary file `handle`, of `bytes` bytes. */
function handleInput(handle: FileHandle, bytes: number): OpenedPackage {
  return {
    size: bytes,
    fd: handle.fd,
    async read(position, length) {
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, bytes - position)));
      let done = 0;
      while (done < buffer.length) {
        const { bytesRead } = await handle.read(buffer, done, buffer.length - done, position + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return buffer.subarray(0, done);
    },
    close: () => handle.close(),
  };
}

/** A package held in memory. */
export function bufferInput(bytes: Buffer): OpenedPackage {
  return {
    size: bytes.length,
    bytes,
    read: async (position, length) => bytes.subarray(position, position + length),
    close: async () => undefined,
  };
}

/** A package in a file its opener keeps open (the worker reads the descriptor the process spooled it to). */
export function descriptorInput(fd: number, size: number): ZipInput {
  return {
    size,
    read: (at, length) =>
      new Promise((resolve, reject) => {
        const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - at)));
        read(fd, buffer, 0, buffer.length, at, (error, bytesRead) =>
          error ? reject(error) : resolve(buffer.subarray(0, bytesRead)),
        );
      }),
  };
}
