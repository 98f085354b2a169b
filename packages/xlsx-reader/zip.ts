import { refuse, unreadable } from "./errors";
import { breathe, type XlsxLimits } from "./limits";

/**
 * The package: a ZIP read through its central directory (ZIP64 sizes and offsets included), each entry where the
 * directory says, its local header naming it as the directory does, no two entries sharing bytes.
 */

/** The package's bytes: in memory (`bytes`), or read from a file by position. */
export type ZipInput = { size: number; bytes?: Buffer; read(position: number, length: number): Promise<Buffer> };

export type ZipEntry = {
  name: string;
  /** The name's bytes as the directory has them (the local header must have the same). */
  rawName: Buffer;
  method: number;
  compressedSize: number;
  local: number;
  dataStart: number;
};

/** Where the central directory is, and how many entries it lists. */
type Directory = { count: number; offset: number; end: number };

/** The end of central directory record (and the ZIP64 one it points to): the directory's place and size. */
async function findDirectory(input: ZipInput): Promise<Directory> {
  const size = input.size;
  const tailStart = Math.max(0, size - 22 - 0xffff - 20);
  const tail = await input.read(tailStart, size - tailStart);
  let end = -1;
  for (let at = size - 22; at >= Math.max(0, size - 22 - 0xffff); at--) {
    if (tail.readUInt32LE(at - tailStart) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw unreadable("o arquivo não é um pacote ZIP.");
  const count = tail.readUInt16LE(end - tailStart + 10);
  const offset = tail.readUInt32LE(end - tailStart + 16);
  const locator = end - 20 - tailStart;
  if ((offset === 0xffffffff || count === 0xffff) && locator >= 0 && tail.readUInt32LE(locator) === 0x07064b50) {
    const end64 = Number(tail.readBigUInt64LE(locator + 8));
    if (end64 + 56 > size) throw unreadable("ZIP64 corrompido.");
    const record = await input.read(end64, 56);
    if (record.readUInt32LE(0) !== 0x06064b50) throw unreadable("ZIP64 corrompido.");
    return { count: Number(record.readBigUInt64LE(32)), offset: Number(record.readBigUInt64LE(48)), end: end64 };
  }
  return { count, offset, end };
}

/**
 * ZIP64: the sizes and offset that do not fit in 32 bits are in the extra field 0x0001, in this order. `entry`'s
 * 0xffffffff values are replaced by them.
 */
function readZip64Extra(
  directory: Buffer,
  from: number,
  extraEnd: number,
  entry: { size: number; compressedSize: number; local: number },
): void {
  for (let field = from; field + 4 <= extraEnd; ) {
    const id = directory.readUInt16LE(field);
    const length = directory.readUInt16LE(field + 2);
    if (id === 1) {
      let value = field + 4;
      const next = () => {
        if (value + 8 > Math.min(extraEnd, field + 4 + length)) throw unreadable("ZIP64 corrompido.");
        const read = Number(directory.readBigUInt64LE(value));
        value += 8;
        return read;
      };
      if (entry.size === 0xffffffff) entry.size = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.local === 0xffffffff) entry.local = next();
    }
    field += 4 + length;
  }
}

/** The directory's record at `at`: its entry and where the next record starts. */
function directoryRecord(directory: Buffer, at: number): { entry: ZipEntry; next: number } {
  if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50)
    throw unreadable("diretório ZIP corrompido.");
  const flags = directory.readUInt16LE(at + 8);
  const method = directory.readUInt16LE(at + 10);
  const nameLength = directory.readUInt16LE(at + 28);
  const extraLength = directory.readUInt16LE(at + 30);
  const commentLength = directory.readUInt16LE(at + 32);
  const nameAt = at + 46;
  if (nameAt + nameLength + extraLength + commentLength > directory.length)
    throw unreadable("diretório ZIP corrompido.");
  const name = directory.toString(flags & 0x800 ? "utf8" : "latin1", nameAt, nameAt + nameLength);
  const sizes = {
    size: directory.readUInt32LE(at + 24),
    compressedSize: directory.readUInt32LE(at + 20),
    local: directory.readUInt32LE(at + 42),
  };
  const extraEnd = nameAt + nameLength + extraLength;
  readZip64Extra(directory, nameAt + nameLength, extraEnd, sizes);
  const rawName = directory.subarray(nameAt, nameAt + nameLength);
  const entry = { name, rawName, method, compressedSize: sizes.compressedSize, local: sizes.local, dataStart: 0 };
  return { entry, next: extraEnd + commentLength };
}

/** The entries of the ZIP, in the order of its central directory, each located (locateData). */
export async function zipEntries(input: ZipInput, limits: XlsxLimits): Promise<ZipEntry[]> {
  const { count, offset, end } = await findDirectory(input);
  if (count > limits.zipEntries) throw refuse("entries", limits.zipEntries);
  if (offset > end) throw unreadable("diretório ZIP corrompido.");
  // Names, extra fields and comments are up to 64 KB each: the directory is bounded by the entries' count.
  const directoryCap = limits.zipEntries * 1024;
  if (end - offset > directoryCap) throw refuse("directory", directoryCap);
  const directory = await input.read(offset, end - offset);
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let at = 0;
  for (let i = 0; i < count; i++) {
    const { entry, next } = directoryRecord(directory, at);
    if (names.has(entry.name)) throw refuse("duplicate", 0);
    names.add(entry.name);
    entries.push(entry);
    at = next;
    if (i % 1024 === 1023) await breathe();
  }
  await locateData(input, entries, offset);
  return entries;
}

/** Where each entry's data starts (past its local header, whose name must be the directory's), none overlapping. */
async function locateData(input: ZipInput, entries: ZipEntry[], directoryStart: number): Promise<void> {
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const label = entry.name.slice(0, 100);
    if (entry.local + 30 + entry.rawName.length > directoryStart) throw unreadable(`entrada ${label} corrompida.`);
    const header = await input.read(entry.local, 30 + entry.rawName.length);
    const nameLength = header.readUInt16LE(26);
    if (
      header.readUInt32LE(0) !== 0x04034b50 ||
      nameLength !== entry.rawName.length ||
      !header.subarray(30).equals(entry.rawName)
    )
      throw unreadable(`entrada ${label} corrompida.`);
    entry.dataStart = entry.local + 30 + nameLength + header.readUInt16LE(28);
    if (entry.dataStart + entry.compressedSize > directoryStart) throw unreadable(`entrada ${label} truncada.`);
    if (i % 1024 === 1023) await breathe();
  }
  // Two entries sharing bytes (a file read one way by one reader and another way by another): refused.
  const byStart = [...entries].sort((a, b) => a.local - b.local);
  for (let i = 1; i < byStart.length; i++) {
    const before = byStart[i - 1];
    if (byStart[i].local < before.dataStart + before.compressedSize) throw refuse("overlap", 0);
  }
}
