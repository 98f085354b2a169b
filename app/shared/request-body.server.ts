/** Reads at most `limit` bytes of the request body as UTF-8 text; null when it is longer (the rest is not read). */
export async function readLimitedText(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413 };

/** The body parsed as JSON when it is at most `limit` bytes: 413 when longer, 400 when it is not JSON. */
export async function readLimitedJson(request: Request, limit: number): Promise<JsonBody> {
  const text = await readLimitedText(request, limit).catch(() => null);
  if (text === null) return { ok: false, status: 413 };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400 };
  }
}
