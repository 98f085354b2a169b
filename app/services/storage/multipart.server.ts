/**
 * A streaming multipart/form-data reader: parts come out one at a time and each part's bytes are
 * an async iterable of slices of the incoming chunks, found with Buffer#indexOf (native), so a
 * 1 GB upload moves at close to disk speed and is never held in memory.
 */

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MultipartError";
  }
}

export type MultipartPart = {
  name: string;
  filename?: string;
  contentType?: string;
  /** Must be consumed (or left: the reader drains it) before the next part is read. */
  data: AsyncIterable<Buffer>;
};

const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

export function boundaryOf(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return null;
  const m = /boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : null;
}

function parseDisposition(headers: string): { name?: string; filename?: string; contentType?: string } {
  const result: { name?: string; filename?: string; contentType?: string } = {};
  for (const line of headers.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === "content-type") result.contentType = value;
    if (field !== "content-disposition") continue;
    const name = /(?:^|;)\s*name="((?:[^"\\]|\\.)*)"/i.exec(value);
    if (name) result.name = name[1].replace(/\\(.)/g, "$1");
    const star = /(?:^|;)\s*filename\*=UTF-8''([^;]+)/i.exec(value);
    const plain = /(?:^|;)\s*filename="((?:[^"\\]|\\.)*)"/i.exec(value);
    if (star) {
      try {
        result.filename = decodeURIComponent(star[1]);
      } catch {
        // fall back to the plain form
      }
    }
    if (!result.filename && plain) result.filename = plain[1].replace(/\\(.)/g, "$1");
  }
  return result;
}

/** Length of the longest end of `buf` that could be the start of the delimiter (usually 0). */
function partialDelimiterAtEnd(buf: Buffer, delimiter: Buffer): number {
  const max = Math.min(buf.length, delimiter.length - 1);
  for (let k = max; k > 0; k--) {
    if (buf[buf.length - k] !== 0x0d) continue;
    if (buf.subarray(buf.length - k).equals(delimiter.subarray(0, k))) return k;
  }
  return 0;
}

export async function* readMultipart(body: AsyncIterable<Uint8Array>, boundary: string): AsyncGenerator<MultipartPart> {
  const source = body[Symbol.asyncIterator]();
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The body starts with "--boundary"; a leading CRLF makes the first delimiter like the others.
  let buf: Buffer = Buffer.from(CRLF);
  let ended = false;

  const pull = async (): Promise<boolean> => {
    if (ended) return false;
    const next = await source.next();
    if (next.done) {
      ended = true;
      return false;
    }
    const chunk = Buffer.isBuffer(next.value)
      ? next.value
      : Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    return true;
  };

  // Preamble up to the first delimiter.
  for (;;) {
    const at = buf.indexOf(delimiter);
    if (at >= 0) {
      buf = buf.subarray(at + delimiter.length);
      break;
    }
    if (buf.length > MAX_HEADER_BYTES) throw new MultipartError("multipart boundary not found");
    if (!(await pull())) throw new MultipartError("multipart body ended before the first boundary");
  }

  for (;;) {
    // After a delimiter: "--" ends the body, CRLF starts a part.
    while (buf.length < 2) if (!(await pull())) throw new MultipartError("multipart body ended early");
    if (buf[0] === 0x2d && buf[1] === 0x2d) return;
    if (buf[0] !== 0x0d || buf[1] !== 0x0a) throw new MultipartError("malformed multipart delimiter");
    buf = buf.subarray(2);
    let headerEnd: number;
    // Each part's headers are limited on their own, however the bytes were chunked: the end of the headers is
    // looked for only within the first MAX_HEADER_BYTES, so one large chunk cannot carry longer headers.
    const headerWindow = MAX_HEADER_BYTES + HEADER_END.length;
    while ((headerEnd = buf.subarray(0, headerWindow).indexOf(HEADER_END)) < 0) {
      if (buf.length >= headerWindow) throw new MultipartError("multipart part headers too large");
      if (!(await pull())) throw new MultipartError("multipart body ended in part headers");
    }
    const info = parseDisposition(buf.subarray(0, headerEnd).toString("utf8"));
    buf = buf.subarray(headerEnd + HEADER_END.length);

    let finished = false;
    const data = (async function* () {
      for (;;) {
        const at = buf.indexOf(delimiter);
        if (at >= 0) {
          const last = buf.subarray(0, at);
          buf = buf.subarray(at + delimiter.length);
          finished = true;
          if (last.length > 0) yield last;
          return;
        }
        const keep = partialDelimiterAtEnd(buf, delimiter);
        if (buf.length > keep) {
          const out = buf.subarray(0, buf.length - keep);
          buf = buf.subarray(buf.length - keep);
          yield out;
        }
        if (!(await pull())) throw new MultipartError("multipart body ended inside a part");
      }
    })();
    yield { name: info.name ?? "", filename: info.filename, contentType: info.contentType, data };
    if (!finished) for await (const _ of data) void _; // drain what the caller did not read
  }
}
