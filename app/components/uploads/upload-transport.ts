import type { UploadFailureCode } from "./upload-list";

/**
 * Browser side of an upload, for both stores. XMLHttpRequest (not fetch) carries the bytes because
 * it reports upload progress and can be aborted mid-transfer.
 *   local: POST /api/upload (multipart field `files`, Accept: application/json): stored and registered
 *          in one request; its JSON says COD.2 (transfer) or COD.3 (registration) on failure.
 *   s3:    /api/uploads/s3 "create" → presigned PUT (or multipart parts + "complete") straight to
 *          the bucket → /api/files/register (the spec's /newFile). A failure before the object is
 *          complete is COD.2; a failed registration is COD.3.
 */

export type StoreKind = "local" | "s3";
export type UploadOutcome = { ok: true } | { ok: false; aborted: true } | { ok: false; aborted?: false; code: UploadFailureCode; detail?: string };
export type ProgressHandler = (loaded: number, total: number) => void;

export type UploadHandle = { promise: Promise<UploadOutcome>; abort: () => void };

type XhrResult = { status: number; body: unknown; etag: string | null } | { aborted: true } | { networkError: true };

function sendXhr(
  method: string,
  url: string,
  body: XMLHttpRequestBodyInit,
  options: { headers?: Record<string, string>; onProgress?: ProgressHandler; register: (xhr: XMLHttpRequest) => void },
): Promise<XhrResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    if (options.onProgress) {
      const report = options.onProgress;
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) report(event.loaded, event.total);
      };
    }
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = null;
      }
      resolve({ status: xhr.status, body: parsed, etag: xhr.getResponseHeader("ETag") });
    };
    xhr.onerror = () => resolve({ networkError: true });
    xhr.ontimeout = () => resolve({ networkError: true });
    xhr.onabort = () => resolve({ aborted: true });
    options.register(xhr);
    xhr.send(body);
  });
}

type ApiAnswer = { ok?: boolean; code?: string; detail?: string } & Record<string, unknown>;

function failureOf(body: unknown, fallback: UploadFailureCode): { code: UploadFailureCode; detail?: string } {
  const answer = (body ?? {}) as ApiAnswer;
  const code = answer.code === "COD.3" ? "COD.3" : answer.code === "COD.2" ? "COD.2" : fallback;
  return { code, detail: typeof answer.detail === "string" ? answer.detail : undefined };
}

/** Local store: one multipart POST; the server stores and registers the file. */
export function uploadToLocalStore(file: File, onProgress: ProgressHandler): UploadHandle {
  let current: XMLHttpRequest | null = null;
  let aborted = false;
  const form = new FormData();
  form.append("files", file, file.name);
  const promise = sendXhr("POST", "/api/upload", form, {
    headers: { Accept: "application/json" },
    onProgress,
    register: (xhr) => (current = xhr),
  }).then((result): UploadOutcome => {
    if ("aborted" in result || aborted) return { ok: false, aborted: true };
    if ("networkError" in result) return { ok: false, code: "COD.2" };
    const answer = (result.body ?? {}) as ApiAnswer;
    if (result.status >= 200 && result.status < 300 && answer.ok === true) return { ok: true };
    return { ok: false, ...failureOf(result.body, "COD.2") };
  });
  return {
    promise,
    abort: () => {
      aborted = true;
      current?.abort();
    },
  };
}

async function postJson(url: string, payload: unknown, signal: AbortSignal): Promise<{ status: number; body: ApiAnswer | null }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(payload),
    signal,
    credentials: "same-origin",
  });
  const body = (await response.json().catch(() => null)) as ApiAnswer | null;
  return { status: response.status, body };
}

type CreateAnswer =
  | { ok: true; bucket: string; ticket: string; mode: "single"; key: string; url: string; headers: Record<string, string> }
  | { ok: true; bucket: string; ticket: string; mode: "multipart"; key: string; uploadId: string; partSize: number; partCount: number };

const SIGN_BATCH = 20;

/** S3: presigned PUT or multipart straight to the bucket, then the registration. */
export function uploadToS3(file: File, onProgress: ProgressHandler, clientName?: string): UploadHandle {
  const controller = new AbortController();
  let current: XMLHttpRequest | null = null;
  let ticketForAbort: string | null = null;
  const register = (xhr: XMLHttpRequest) => (current = xhr);
  const aborted = (): UploadOutcome => ({ ok: false, aborted: true });

  const run = async (): Promise<UploadOutcome> => {
    const created = await postJson(
      "/api/uploads/s3",
      { intent: "create", fileName: file.name, size: file.size, contentType: file.type || undefined },
      controller.signal,
    );
    if (created.status !== 200 || !created.body?.ok) return { ok: false, ...failureOf(created.body, "COD.2") };
    const plan = created.body as unknown as CreateAnswer;

    if (plan.mode === "single") {
      const put = await sendXhr("PUT", plan.url, file, { headers: plan.headers, onProgress, register });
      if ("aborted" in put) return aborted();
      if ("networkError" in put || put.status < 200 || put.status >= 300) return { ok: false, code: "COD.2" };
    } else {
      ticketForAbort = plan.ticket;
      const parts: Array<{ partNumber: number; etag: string }> = [];
      for (let first = 1; first <= plan.partCount; first += SIGN_BATCH) {
        const numbers = Array.from({ length: Math.min(SIGN_BATCH, plan.partCount - first + 1) }, (_, i) => first + i);
        const signed = await postJson("/api/uploads/s3", { intent: "sign-parts", ticket: plan.ticket, partNumbers: numbers }, controller.signal);
        if (signed.status !== 200 || !signed.body?.ok) return { ok: false, ...failureOf(signed.body, "COD.2") };
        for (const { partNumber, url } of signed.body.parts as Array<{ partNumber: number; url: string }>) {
          const start = (partNumber - 1) * plan.partSize;
          const blob = file.slice(start, Math.min(file.size, start + plan.partSize));
          const put = await sendXhr("PUT", url, blob, { onProgress: (loaded) => onProgress(start + loaded, file.size), register });
          if ("aborted" in put) return aborted();
          // The bucket's CORS rule must expose ETag for the browser to read it.
          if ("networkError" in put || put.status < 200 || put.status >= 300 || !put.etag) return { ok: false, code: "COD.2" };
          parts.push({ partNumber, etag: put.etag });
        }
      }
      const completed = await postJson("/api/uploads/s3", { intent: "complete", ticket: plan.ticket, parts }, controller.signal);
      if (completed.status !== 200 || !completed.body?.ok) return { ok: false, ...failureOf(completed.body, "COD.2") };
      ticketForAbort = null;
    }
    onProgress(file.size, file.size);

    const registered = await postJson(
      "/api/files/register",
      { clientName, originalName: file.name, srcBucket: plan.bucket, srcKey: plan.key, ticket: plan.ticket },
      controller.signal,
    ).catch(() => null);
    if (!registered || registered.status !== 200 || !registered.body?.ok) return { ok: false, code: "COD.3", detail: registered?.body?.detail };
    return { ok: true };
  };

  const promise = run().catch((error: unknown): UploadOutcome => {
    if (controller.signal.aborted || (error as Error)?.name === "AbortError") return aborted();
    return { ok: false, code: "COD.2" };
  });
  return {
    promise,
    abort: () => {
      controller.abort();
      current?.abort();
      const ticket = ticketForAbort;
      // Best effort: a multipart upload left open would keep its parts in the bucket.
      if (ticket) void postJson("/api/uploads/s3", { intent: "abort", ticket }, new AbortController().signal).catch(() => undefined);
    },
  };
}
