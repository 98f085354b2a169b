import { boundaryOf, readMultipart } from "~/services/storage/multipart.server";

/**
 * A multipart form with a few text fields and at most one small file (a cockpit attachment), read with the
 * portal's streaming reader and held in memory within `maxFileBytes`: a larger file, a second file or a
 * broken body is refused before anything is stored.
 */
export type SmallMultipart =
  | { ok: true; fields: Record<string, string>; file: { name: string; bytes: Buffer } | null }
  | { ok: false; reason: "malformed" | "too-large" };

const MAX_FIELD_BYTES = 4 * 1024;
const MAX_FIELDS = 20;

export async function readSmallMultipart(request: Request, maxFileBytes: number): Promise<SmallMultipart> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxFileBytes + 64 * 1024) return { ok: false, reason: "too-large" };
  const boundary = boundaryOf(request.headers.get("Content-Type"));
  if (!boundary || !request.body) return { ok: false, reason: "malformed" };
  const fields: Record<string, string> = {};
  let file: { name: string; bytes: Buffer } | null = null;
  let count = 0;
  try {
    for await (const part of readMultipart(request.body as unknown as AsyncIterable<Uint8Array>, boundary)) {
      if (++count > MAX_FIELDS) return { ok: false, reason: "malformed" };
      const isFile = part.filename !== undefined;
      if (isFile && file) return { ok: false, reason: "malformed" };
      const limit = isFile ? maxFileBytes : MAX_FIELD_BYTES;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.data) {
        size += chunk.length;
        if (size > limit) return { ok: false, reason: isFile ? "too-large" : "malformed" };
        chunks.push(chunk);
      }
      const bytes = Buffer.concat(chunks);
      if (isFile) {
        if (part.filename) file = { name: part.filename.split(/[\\/]/).pop() ?? part.filename, bytes };
      } else fields[part.name] = bytes.toString("utf8");
    }
  } catch {
    return { ok: false, reason: "malformed" };
  }
  return { ok: true, fields, file };
}
