import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { tooLargeError } from "./keys.server";

export class StorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key).slice(0, 120)}`);
    this.name = "StorageKeyError";
  }
}

export class StoredObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`Stored object not found: ${key}`);
    this.name = "StoredObjectNotFoundError";
  }
}

const PARTIAL_SUFFIX = ".partial";
/** Where a write to `target` goes before it is renamed over it (list() reports these as partial). */
const temporaryName = (target: string) => `${target}.${crypto.randomUUID()}${PARTIAL_SUFFIX}`;
const WRITE_BATCH_BYTES = 1024 * 1024;
/** Errors of a file system that has no hard links (or not across these folders): linkCopy copies the bytes. */
const NO_HARD_LINKS = new Set(["EXDEV", "EPERM", "ENOTSUP", "EMLINK"]);

async function writeAll(handle: fsp.FileHandle, buffers: Buffer[]): Promise<void> {
  let remaining = buffers;
  while (remaining.length > 0) {
    const { bytesWritten } = await handle.writev(remaining);
    let skip = bytesWritten;
    const rest: Buffer[] = [];
    for (const b of remaining) {
      if (skip >= b.length) skip -= b.length;
      else {
        rest.push(skip > 0 ? b.subarray(skip) : b);
        skip = 0;
      }
    }
    remaining = rest;
  }
}

/**
 * Files under one root directory (DATA_DIR/uploads). Every path is resolved and checked to stay
 * inside the root, so a key such as "../../etc/passwd" is refused rather than followed.
 */
export class LocalObjectStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The absolute path of a key, or a StorageKeyError when it would leave the root. */
  resolve(key: string): string {
    if (typeof key !== "string" || key.length === 0 || key.length > 512 || key.includes("\0") || path.isAbsolute(key)) {
      throw new StorageKeyError(String(key));
    }
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep) || full.endsWith(PARTIAL_SUFFIX)) throw new StorageKeyError(key);
    return full;
  }

  /**
   * Streams bytes to `key`, refusing (and removing what was written) as soon as more than
   * maxBytes arrive. Writes to a temporary name first so a half-written upload never appears
   * under its final key.
   */
  async putStream(
    key: string,
    source: Readable | AsyncIterable<Uint8Array>,
    options: { maxBytes: number },
  ): Promise<{ bytes: number }> {
    const target = this.resolve(key);
    const folder = path.dirname(target);
    await this.makeFolder(folder);
    const temp = temporaryName(target);
    let bytes = 0;
    const handle = await fsp.open(temp, "wx").catch(async (error: NodeJS.ErrnoException) => {
      // The folder was removed since it was made: made again, once (nothing of the source is read yet).
      if (error.code !== "ENOENT") throw error;
      await fsp.mkdir(folder, { recursive: true });
      return fsp.open(temp, "wx");
    });
    let writing: Promise<void> = Promise.resolve();
    try {
      // Chunks are gathered into ~1 MB writev calls (few syscalls, no copies); one write is in
      // flight while the next batch is read, so disk and network overlap.
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const startWrite = async (buffers: Buffer[]) => {
        await writing;
        writing = writeAll(handle, buffers);
        writing.catch(() => undefined); // surfaced by the next await of `writing`
      };
      for await (const piece of source as AsyncIterable<Uint8Array>) {
        const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
        bytes += chunk.length;
        if (bytes > options.maxBytes) throw tooLargeError(options.maxBytes);
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= WRITE_BATCH_BYTES) {
          await startWrite(pending);
          pending = [];
          pendingBytes = 0;
        }
      }
      if (pending.length > 0) await startWrite(pending);
      await writing;
      await handle.close();
      await fsp.rename(temp, target);
    } catch (error) {
      await writing.catch(() => undefined);
      await handle.close().catch(() => undefined);
      await fsp.rm(temp, { force: true });
      if (typeof (source as Readable).destroy === "function") (source as Readable).destroy();
      throw error;
    }
    return { bytes };
  }

  /** Folders made by the writes: each is made once, however many objects go into it. */
  private readonly madeFolders = new Set<string>();

  private async makeFolder(folder: string): Promise<void> {
    if (this.madeFolders.has(folder)) return;
    await fsp.mkdir(folder, { recursive: true });
    this.madeFolders.add(folder);
  }

  /**
   * Writes `bytes`, held whole in memory, to `key`: under a temporary name, then renamed, as putStream does, in
   * fewer steps (the seed and the portal's own documents write tens of thousands of small objects).
   */
  async putBytes(key: string, bytes: Uint8Array): Promise<void> {
    await this.placeNew(this.resolve(key), (temp) => fsp.writeFile(temp, bytes, { flag: "wx" }));
  }

  /**
   * Stores at `key` the bytes stored at `sourceKey`, as a second name of the same file (a hard link: no bytes
   * written, a tenth of a write's time on this kind of disk). The store never changes a file in place (every
   * write renames a new file over the name), so the two keys stay equal until either is replaced or removed.
   * On a file system without hard links the bytes are copied.
   */
  async linkCopy(sourceKey: string, key: string): Promise<void> {
    const source = this.resolve(sourceKey);
    try {
      await this.placeNew(this.resolve(key), async (temp) => {
        try {
          await fsp.link(source, temp);
        } catch (error) {
          if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
          await fsp.copyFile(source, temp, fs.constants.COPYFILE_EXCL);
        }
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new StoredObjectNotFoundError(sourceKey);
      throw error;
    }
  }

  /**
   * Makes a new file under a temporary name beside `target` with `make`, then renames it over `target`; the
   * folder is made the first time (and again if `make` finds it gone). Nothing is left under the temporary name.
   */
  private async placeNew(target: string, make: (temp: string) => Promise<void>): Promise<void> {
    const folder = path.dirname(target);
    const temp = temporaryName(target);
    await this.makeFolder(folder);
    try {
      try {
        await make(temp);
      } catch (error) {
        // The folder was removed since it was made (the sweeper, a person): made again, once.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        await fsp.mkdir(folder, { recursive: true });
        await make(temp);
      }
      await fsp.rename(temp, target);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
  }

  async size(key: string): Promise<number> {
    try {
      return (await fsp.stat(this.resolve(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new StoredObjectNotFoundError(key);
      throw error;
    }
  }

  async openReadStream(key: string): Promise<{ stream: Readable; size: number }> {
    const full = this.resolve(key);
    const size = await this.size(key);
    return { stream: fs.createReadStream(full, { highWaterMark: 256 * 1024 }), size };
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fsp.access(this.resolve(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.resolve(key), { force: true });
  }

  /**
   * Every object (and abandoned partial write) with its modification time; the sweeper uses it.
   * Partial writes are reported with `partial: true` and their path relative to the root.
   */
  async *list(): AsyncGenerator<{ key: string; modifiedAt: Date; partial: boolean }> {
    const walk = async function* (
      dir: string,
      prefix: string,
    ): AsyncGenerator<{ key: string; modifiedAt: Date; partial: boolean }> {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      for (const entry of entries) {
        const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) yield* walk(full, rel);
        else if (entry.isFile()) {
          const stat = await fsp.stat(full).catch(() => undefined);
          if (stat) yield { key: rel, modifiedAt: stat.mtime, partial: entry.name.endsWith(PARTIAL_SUFFIX) };
        }
      }
    };
    yield* walk(this.root, "");
  }

  /** Removes an abandoned partial write found by list(). */
  async deletePartial(relativePath: string): Promise<void> {
    const full = path.resolve(this.root, relativePath);
    if (!full.startsWith(this.root + path.sep) || !full.endsWith(PARTIAL_SUFFIX))
      throw new StorageKeyError(relativePath);
    await fsp.rm(full, { force: true });
  }
}
