import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { BSON, type ObjectId } from "mongodb";
import { getConfig } from "~/config.server";

/**
 * The valid rows of one run of an all-or-nothing upload, kept until the whole file has been checked: a file of BSON
 * documents (`{k, l, d}`: the row's key, its line, the document to apply) under DATA_DIR/import-spool, written as the
 * rows are read and read back in batches when the file is applied. Never the whole file in memory, and no round trip
 * through the database for rows that may never be applied.
 *
 * Each run writes its own file (`<file id>-<random>.bson`), removed when the run ends; one left by a process that
 * died is removed by the next run of the same upload, or by any run once it is older than SPOOL_MAX_AGE_MS.
 */

export const SPOOL_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const READ_CHUNK = 1 << 20;

export type SpooledRow = { key: string; line: number; doc: Record<string, unknown> };

export function spoolDir(): string {
  return path.resolve(getConfig().dataDir, "import-spool");
}

export class RowSpool {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly handle: fs.FileHandle,
  ) {}

  /** A new spool for a run of `file`, after removing what earlier runs of it (and stale runs of any file) left. */
  static async create(file: ObjectId): Promise<RowSpool> {
    const dir = spoolDir();
    await fs.mkdir(dir, { recursive: true });
    await removeLeftovers(dir, file);
    const name = path.join(dir, `${file.toHexString()}-${crypto.randomBytes(6).toString("hex")}.bson`);
    return new RowSpool(name, await fs.open(name, "wx+"));
  }

  /** Appends rows (in order of the calls, whatever their completion order). */
  append(rows: readonly SpooledRow[]): Promise<void> {
    if (rows.length === 0) return this.tail.then(() => undefined);
    const bytes = Buffer.concat(rows.map((r) => BSON.serialize({ k: r.key, l: r.line, d: r.doc })));
    const write = this.tail.then(() => this.handle.write(bytes));
    this.tail = write.catch(() => undefined);
    return write.then(() => undefined);
  }

  /** The spooled rows in the order written, `size` at a time, read through one buffer (rows are copied out of it). */
  async *batches(size: number): AsyncGenerator<SpooledRow[]> {
    await this.tail;
    let buffer = Buffer.allocUnsafe(READ_CHUNK);
    let position = 0;
    let filled = 0; // bytes of buffer holding data not yet decoded
    let batch: SpooledRow[] = [];
    for (;;) {
      if (filled === buffer.length) {
        // One row larger than the buffer: grow it to hold the row.
        const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, buffer.readInt32LE(0)));
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const { bytesRead } = await this.handle.read(buffer, filled, buffer.length - filled, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const end = filled + bytesRead;
      let offset = 0;
      while (end - offset >= 4) {
        const length = buffer.readInt32LE(offset);
        if (end - offset < length) break;
        const row = BSON.deserialize(buffer.subarray(offset, offset + length)) as {
          k: string;
          l: number;
          d: Record<string, unknown>;
        };
        batch.push({ key: row.k, line: row.l, doc: row.d });
        offset += length;
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      filled = end - offset;
      buffer.copy(buffer, 0, offset, end);
    }
    if (filled > 0) throw new Error(`${this.path}: ${filled} bytes after the last row`);
    if (batch.length > 0) yield batch;
  }

  /** Closes and deletes the spool (safe to call twice). */
  async remove(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    await this.handle.close().catch(() => undefined);
    await fs.rm(this.path, { force: true });
  }
}

/** Files' modification times are the system's, so their age is measured on the system clock (not a job's clock). */
async function removeLeftovers(dir: string, file: ObjectId): Promise<void> {
  const mine = `${file.toHexString()}-`;
  for (const name of await fs.readdir(dir)) {
    const full = path.join(dir, name);
    if (name.startsWith(mine)) {
      await fs.rm(full, { force: true });
      continue;
    }
    const stat = await fs.stat(full).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > SPOOL_MAX_AGE_MS) await fs.rm(full, { force: true });
  }
}
