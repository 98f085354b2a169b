import { getConfig } from "~/config.server";
import { registerStoredObject } from "~/models/file-jobs.server";
import {
  assertUploadAllowed,
  generateStorageKey,
  getLocalStore,
  LOCAL_BUCKET,
  UploadRejectedError,
  uploadLimits,
} from "~/services/storage.server";
import { formatBytes } from "~/services/storage/keys.server";
import { boundaryOf, readMultipart } from "~/services/storage/multipart.server";

export const UPLOAD_PAGE = "/captura/manual";
/** Multipart framing around the file bytes (boundaries, part headers). */
const MULTIPART_OVERHEAD = 1024 * 1024;

type Stored = { originalName: string; key: string; bytes: number };
type Failure = { code: "COD.2" | "COD.3"; status: number; detail: string };

export const uploadTexts = {
  // ours: the toast after a plain (no-JS) form upload
  uploaded: (n: number) => (n === 1 ? "Arquivo enviado com sucesso." : `${n} arquivos enviados com sucesso.`),
  noFile: "Nenhum arquivo selecionado.",
  wrongStore: "Este ambiente usa upload direto para o S3.",
};

/** The upload itself, separate from the session so the benchmark and tests can drive it. */
export async function handleUpload(
  request: Request,
  userEmail: string,
): Promise<{ files: Array<{ id: string; originalName: string; key: string; bytes: number }> } | { failure: Failure }> {
  if (getConfig().storage.kind !== "local") return { failure: { code: "COD.2", status: 409, detail: uploadTexts.wrongStore } };
  const limits = uploadLimits();
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > limits.maxBytes + MULTIPART_OVERHEAD) {
    return { failure: { code: "COD.2", status: 413, detail: `Arquivo maior que o limite de ${formatBytes(limits.maxBytes)}.` } };
  }
  const boundary = boundaryOf(request.headers.get("Content-Type"));
  if (!boundary || !request.body) return { failure: { code: "COD.2", status: 400, detail: uploadTexts.noFile } };
  const store = getLocalStore();
  const stored: Stored[] = [];
  try {
    for await (const part of readMultipart(request.body as unknown as AsyncIterable<Uint8Array>, boundary)) {
      if (part.name !== "files" || !part.filename) continue; // other fields are skipped (and drained)
      assertUploadAllowed(part.filename, undefined, limits); // before a single byte is written
      const key = generateStorageKey(part.filename);
      const { bytes } = await store.putStream(key, part.data, { maxBytes: limits.maxBytes });
      stored.push({ originalName: part.filename.split(/[\\/]/).pop() ?? part.filename, key, bytes });
    }
  } catch (error) {
    await Promise.all(stored.map((s) => store.delete(s.key).catch(() => undefined)));
    const detail = error instanceof UploadRejectedError ? error.message : "Falha na transferência do arquivo.";
    const status = error instanceof UploadRejectedError ? (error.reason === "size" ? 413 : 415) : 400;
    return { failure: { code: "COD.2", status, detail } };
  }
  if (stored.length === 0) return { failure: { code: "COD.2", status: 400, detail: uploadTexts.noFile } };

  const files: Array<{ id: string; originalName: string; key: string; bytes: number }> = [];
  for (let i = 0; i < stored.length; i++) {
    const s = stored[i];
    try {
      const id = await registerStoredObject({ originalName: s.originalName, key: s.key, bucket: LOCAL_BUCKET, user: userEmail }, () => store.delete(s.key));
      files.push({ id: String(id), originalName: s.originalName, key: s.key, bytes: s.bytes });
    } catch {
      // The failed one was removed by registerStoredObject; the ones not yet registered go too.
      await Promise.all(stored.slice(i + 1).map((rest) => store.delete(rest.key).catch(() => undefined)));
      return { failure: { code: "COD.3", status: 500, detail: `Falha ao registrar ${s.originalName}.` } };
    }
  }
  return { files };
}
