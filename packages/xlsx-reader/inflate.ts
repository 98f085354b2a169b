import { createInflateRaw, type InflateRaw, inflateRawSync } from "node:zlib";
import { refuse, unreadable } from "./errors";
import { breathe, checkAborted, MB, type ReadOptions, type ReadStats, type Refusal, type XlsxLimits } from "./limits";
import type { ZipEntry, ZipInput } from "./zip";

/** Inflating a part, every chunk counted against the caps as it comes out of the inflater, before it is given. */

export const SHARED_STRINGS = "xl/sharedStrings.xml";
export const STYLES = "xl/styles.xml";
export const WORKBOOK = "xl/workbook.xml";
export const WORKBOOK_RELS = "xl/_rels/workbook.xml.rels";

/** Inflated bytes of the whole package so far. */
export type Count = { total: number; stats: ReadStats };

type PartCap = { kind: Refusal["kind"]; limit: number };
/** A part's inflated bytes so far, and the run without a "<" its last chunk ended with. */
type PartCount = { bytes: number; run: number };

/** At most this many bytes of output are inflated at once (smallPart). */
const SMALL = 1024 * 1024;

/** The cap of a part read whole into the reader's tables, if it has one of its own. */
function partCap(name: string, limits: XlsxLimits): PartCap | null {
  if (name === SHARED_STRINGS) return { kind: "sharedStringBytes", limit: limits.sharedStringBytes };
  if (name === STYLES) return { kind: "stylesBytes", limit: limits.stylesBytes };
  if (name === WORKBOOK) return { kind: "workbookBytes", limit: limits.workbookBytes };
  if (name === WORKBOOK_RELS) return { kind: "relsBytes", limit: limits.relsBytes };
  return null;
}

/** The inflated chunks of `entry`, each counted before it is given. */
export async function* inflate(
  input: ZipInput,
  entry: ZipEntry,
  count: Count,
  limits: XlsxLimits,
  options: ReadOptions,
): AsyncGenerator<Buffer> {
  const cap = partCap(entry.name, limits);
  const part: PartCount = { bytes: 0, run: 0 };
  const counted = (chunk: Buffer) => {
    countChunk(chunk, count, part, cap, limits);
    return chunk;
  };
  if (entry.method === 0) {
    for (let at = 0; at < entry.compressedSize; at += MB) {
      checkAborted(options.signal);
      yield counted(await input.read(entry.dataStart + at, Math.min(MB, entry.compressedSize - at)));
      await breathe();
    }
    return;
  }
  if (entry.method !== 8) throw unreadable(`entrada ${entry.name} com compressão ${entry.method}.`);
  const small = smallPart(input, entry);
  if (small) {
    checkAborted(options.signal);
    yield counted(small);
    return;
  }
  const inflater = createInflateRaw({ chunkSize: 256 * 1024 });
  if (input.bytes) inflater.end(input.bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize));
  else void pump(input, entry, inflater);
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      checkAborted(options.signal);
      yield counted(chunk);
    }
  } finally {
    inflater.destroy();
  }
}

/**
 * A small part (most of a package's) inflated at once, which costs a tenth of a stream's setup: at most SMALL bytes
 * of output, so the event loop waits a millisecond at most. Null for a larger part, or one that fails (the stream
 * then inflates it, and reports its error).
 */
function smallPart(input: ZipInput, entry: ZipEntry): Buffer | null {
  if (!input.bytes || entry.compressedSize > SMALL / 16) return null;
  try {
    const data = input.bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
    return inflateRawSync(data, { maxOutputLength: SMALL });
  } catch {
    return null;
  }
}

/** Resolves once `inflater` takes more input, or closes. */
function drained(inflater: InflateRaw): Promise<void> {
  return new Promise<void>((resolve) => {
    const go = () => {
      inflater.off("drain", go);
      inflater.off("close", go);
      resolve();
    };
    inflater.on("drain", go);
    inflater.on("close", go);
  });
}

/** Feeds the entry's compressed bytes from a file to the inflater, a MB at a time, as it takes them. */
async function pump(input: ZipInput, entry: ZipEntry, inflater: InflateRaw): Promise<void> {
  try {
    for (let at = 0; at < entry.compressedSize && !inflater.destroyed; at += MB) {
      const slice = await input.read(entry.dataStart + at, Math.min(MB, entry.compressedSize - at));
      if (inflater.destroyed) return;
      if (!inflater.write(slice)) await drained(inflater);
    }
    if (!inflater.destroyed) inflater.end();
  } catch (error) {
    inflater.destroy(error as Error);
  }
}

/** Counts `bytes` against the package's, the part's and the token's caps; throws the first one passed. */
function countChunk(bytes: Buffer, count: Count, part: PartCount, cap: PartCap | null, limits: XlsxLimits): void {
  count.total += bytes.length;
  count.stats.inflatedBytes = count.total;
  part.bytes += bytes.length;
  const first = bytes.indexOf(0x3c);
  let longest: number;
  if (first < 0) longest = part.run += bytes.length;
  else {
    const last = bytes.lastIndexOf(0x3c);
    const inside = bytes.length > limits.tokenBytes ? longestRun(bytes.subarray(first + 1, last)) : 0;
    longest = Math.max(part.run + first, inside, bytes.length - 1 - last);
    part.run = bytes.length - 1 - last;
  }
  if (count.total > limits.inflatedBytes) throw refuse("inflated", limits.inflatedBytes);
  if (cap && part.bytes > cap.limit) throw refuse(cap.kind, cap.limit);
  if (longest > limits.tokenBytes) throw refuse("token", limits.tokenBytes);
}

/** The longest run without a "<" in `bytes` (looked for only in chunks longer than the cap itself). */
function longestRun(bytes: Buffer): number {
  let longest = 0;
  let from = 0;
  for (let at = bytes.indexOf(0x3c); at >= 0; at = bytes.indexOf(0x3c, from)) {
    longest = Math.max(longest, at - from);
    from = at + 1;
  }
  return Math.max(longest, bytes.length - from);
}
