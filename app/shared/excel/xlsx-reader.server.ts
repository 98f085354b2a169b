import crypto from "node:crypto";
import { type FileHandle, open, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createInflateRaw, inflateRawSync } from "node:zlib";
import {
  type ReadOptions,
  type Refusal,
  type SourceRow,
  type XlsxLimits,
  xlsxReaderCore,
  type ZipInput,
} from "./xlsx-reader-core.server";

/**
 * The streaming XLSX reader every spreadsheet import shares (uploads, report packages, the returned exports of the
 * Excel round trips): the first worksheet's rows, within caps on what the file may hold, as sent and once unpacked.
 *
 * The reading itself is xlsx-reader-core.server.ts: the package read through the ZIP's central directory (entries
 * capped in number, none repeated or overlapping), each part inflated with node:zlib and counted against its cap as
 * it comes out of the inflater, every part scanned as it inflates by a tokenizer that keeps only the token a chunk
 * cut, so the work grows with the inflated size (bench/xlsx-read/linear.ts). It gives the rows exceljs's streaming
 * WorkbookReader gave before it, faster (bench/xlsx-read/run.ts); where exceljs has a quirk that shows in the rows,
 * it is kept on purpose and said so there. Requests read on a thread of their own: xlsx-thread.server.ts.
 */

export type { ReadStats, SourceRow, XlsxLimits } from "./xlsx-reader-core.server";

/** The file could not be read as the format its extension claims. */
export class UnreadableFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UnreadableFileError";
  }
}

/** A file refused for its size once unpacked (a decompression bomb, or more than a spreadsheet can hold): status 3. */
export class FileRefusedError extends UnreadableFileError {
  constructor(message: string) {
    super(message);
    this.name = "FileRefusedError";
  }
}

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);
const count = (n: number) => n.toLocaleString("pt-BR");

/** Why a file is refused, each naming its cap. */
export const refusalMessages = {
  package: (bytes: number) => `Arquivo recusado: o arquivo XLSX passa de ${mb(bytes)} MB.`,
  entries: (entries: number) => `Arquivo recusado: o pacote XLSX passa de ${count(entries)} partes (entradas ZIP).`,
  directory: (bytes: number) => `Arquivo recusado: o índice do pacote XLSX (diretório ZIP) passa de ${mb(bytes)} MB.`,
  duplicate: () => "Arquivo recusado: o pacote XLSX tem duas partes (entradas ZIP) com o mesmo nome.",
  overlap: () => "Arquivo recusado: o pacote XLSX tem partes (entradas ZIP) que ocupam os mesmos bytes.",
  inflated: (bytes: number) => `Arquivo recusado: o conteúdo descompactado passa de ${mb(bytes)} MB.`,
  sharedStringBytes: (bytes: number) =>
    `Arquivo recusado: a tabela de textos da planilha (sharedStrings.xml) passa de ${mb(bytes)} MB descompactada.`,
  sharedStrings: (n: number) => `Arquivo recusado: a planilha passa de ${count(n)} textos distintos.`,
  stylesBytes: (bytes: number) =>
    `Arquivo recusado: os estilos da planilha (styles.xml) passam de ${mb(bytes)} MB descompactados.`,
  workbookBytes: (bytes: number) =>
    `Arquivo recusado: a descrição da pasta de trabalho (workbook.xml) passa de ${mb(bytes)} MB descompactada.`,
  relsBytes: (bytes: number) =>
    "Arquivo recusado: as relações da pasta de trabalho (workbook.xml.rels) " +
    `passam de ${mb(bytes)} MB descompactadas.`,
  rows: (n: number) => `Arquivo recusado: a planilha passa de ${count(n)} linhas.`,
  columns: (n: number) => `Arquivo recusado: a planilha passa de ${count(n)} colunas.`,
  cells: (n: number) =>
    `Arquivo recusado: a planilha passa de ${count(n)} células ` +
    "(as vazias antes do último valor de cada linha contam).",
  token: (bytes: number) => `Arquivo recusado: um texto ou marcação do XML da planilha passa de ${mb(bytes)} MB.`,
  part: (name: string, bytes: number) => `Arquivo recusado: ${name} descompactado passa de ${mb(bytes)} MB.`,
  time: (seconds: number) => `Arquivo recusado: a leitura da planilha passou de ${count(seconds)} s.`,
  memory: (megabytes: number) => `Arquivo recusado: a leitura da planilha passou de ${count(megabytes)} MB de memória.`,
};

/** The message of a refusal the core made. */
export function refusalMessage(refusal: Refusal): string {
  return refusalMessages[refusal.kind](refusal.limit);
}

/** `source` passed on as long as it stays within `maxBytes`; past them it fails with FileRefusedError(`message`). */
export function limitBytes(source: Readable | NodeJS.ReadableStream, maxBytes: number, message: string): Readable {
  let bytes = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > maxBytes ? new FileRefusedError(message) : null, bytes > maxBytes ? undefined : chunk);
    },
  });
  source.on("error", (error: Error) => limited.destroy(error));
  return source.pipe(limited);
}

/**
 * What an XLSX may hold (xlsx-reader-core.server.ts XlsxLimits). The parts the reader keeps in tables (shared
 * strings, styles, the workbook and its relationships) each have a cap of their own, well above what a spreadsheet
 * program writes: a few MB for the workbook's description, its relationships and its styles (Excel keeps at most
 * 64,000 cell formats), 128 MB for the shared strings. Rows and columns are Excel's maximum; 10,000 entries are
 * more parts than a workbook of hundreds of sheets has; 128 million cells are 1,048,576 rows of 122 columns.
 */
export const XLSX_LIMITS: XlsxLimits = {
  packageBytes: 1024 * MB,
  zipEntries: 10_000,
  inflatedBytes: 1024 * MB,
  sharedStringBytes: 128 * MB,
  sharedStrings: 2_000_000,
  stylesBytes: 8 * MB,
  workbookBytes: 4 * MB,
  relsBytes: 2 * MB,
  rows: 1_048_576,
  columns: 16_384,
  cells: 128_000_000,
  tokenBytes: 1 * MB,
};

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

const core = xlsxReaderCore({
  createInflateRaw,
  inflateRawSync,
  StringDecoder,
  unreadable: (message) => new UnreadableFileError(message),
  refused: (refusal) => new FileRefusedError(refusalMessage(refusal)),
  breathe,
});

/** A package larger than this is kept in a temporary file while it is read, not in memory. */
export const SPOOL_FROM_BYTES = 16 * MB;

export type ReadXlsxOptions = ReadOptions & {
  /** Where the package goes to a temporary file (SPOOL_FROM_BYTES; tests set a smaller one). */
  spoolFromBytes?: number;
};

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
  if (!file) {
    const whole = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    return bufferInput(whole);
  }
  const handle: FileHandle = file;
  const input: OpenedPackage = {
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
  return input;
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

/**
 * Streams the rows of the first worksheet, within `limits` (XLSX_LIMITS). `options.signal` stops the reading between
 * two inflated chunks (its reason is thrown); any other failure is an UnreadableFileError (FileRefusedError for a
 * cap, naming it).
 */
export async function* readXlsxRows(
  source: Readable,
  limits: XlsxLimits = XLSX_LIMITS,
  options: ReadXlsxOptions = {},
): AsyncGenerator<SourceRow> {
  let input: OpenedPackage | null = null;
  try {
    input = await openXlsxPackage(source, limits, options.spoolFromBytes ?? SPOOL_FROM_BYTES, options.signal);
    yield* core.readRows(input, limits, options);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError(`XLSX inválido: ${(error as Error).message}`, { cause: error });
  } finally {
    source.destroy();
    await input?.close();
  }
}
