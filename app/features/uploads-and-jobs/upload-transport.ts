import { FILE_TARGET_FIELD, type FileTarget } from "~/models/files.fields";
import type { UploadFailureCode } from "./upload-list";

/**
 * Browser side of an upload, for both stores. Each carries the "Tipo de carga" (`target`) when one is given:
 * a form field before the file (local) or a field of the registration (S3). XMLHttpRequest (not fetch) carries the bytes because
 * it reports upload progress and can be aborted mid-transfer.
 *   local: POST /api/upload (multipart field `files`, Accept: application/json): stored and registered
 *          in one request; its JSON says COD.2 (transfer) or COD.3 (registration) on failure.
 *   s3:    /api/uploads/s3 "create" → presigned PUT (or multipart parts + "complete") straight to
 *          the bucket → /api/files/register (the spec's /newFile). A failure before the object is
 *          complete is COD.2; a failed registration is what the server says (COD.3 by default).
 * The network sits behind a `Transport` (XHR and fetch in the browser) so the protocol can be
 * tested without a browser.
 */

export type StoreKind = "local" | "s3";
/** `fileId`: the job the server registered for the file, when it said (the upload list follows it). */
export type UploadOutcome =
  | { ok: true; fileId?: string }
  | { ok: false; aborted: true }
  | { ok: false; aborted?: false; code: UploadFailureCode; detail?: string };
export type ProgressHandler = (loaded: number, total: number) => void;

export type UploadHandle = { promise: Promise<UploadOutcome>; abort: () => void };

export type ApiAnswer = { ok?: boolean; code?: string; detail?: string } & Record<string, unknown>;
export type BytesResult =
  | { status: number; body: unknown; etag: string | null }
  | { aborted: true }
  | { networkError: true };

export type Transport = {
  /** Sends bytes (a file, a slice, a form) with upload progress; aborting `signal` cancels the request. */
  sendBytes: (
    method: string,
    url: string,
    body: Blob | FormData,
    options: { headers?: Record<string, string>; onProgress?: ProgressHandler; signal: AbortSignal },
  ) => Promise<BytesResult>;
  /** A JSON POST to the app (same origin, session cookie). */
  postJson: (
    url: string,
    payload: unknown,
    signal?: AbortSignal,
  ) => Promise<{ status: number; body: ApiAnswer | null }>;
};

function sendXhr(...[method, url, body, options]: Parameters<Transport["sendBytes"]>): Promise<BytesResult> {
  return new Promise((resolve) => {
    if (options.signal.aborted) return resolve({ aborted: true });
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    if (options.onProgress) {
      const report = options.onProgress;
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) report(event.loaded, event.total);
      };
    }
    const onAbort = () => xhr.abort();
    options.signal.addEventListener("abort", onAbort, { once: true });
    const settle = (result: BytesResult) => {
      options.signal.removeEventListener("abort", onAbort);
      resolve(result);
    };
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = null; // S3 answers XML
      }
      settle({ status: xhr.status, body: parsed, etag: xhr.getResponseHeader("ETag") });
    };
    xhr.onerror = () => settle({ networkError: true });
    xhr.ontimeout = () => settle({ networkError: true });
    xhr.onabort = () => settle({ aborted: true });
    xhr.send(body);
  });
}

async function fetchJson(
  url: string,
  payload: unknown,
  signal?: AbortSignal,
): Promise<{ status: number; body: ApiAnswer | null }> {
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

export const browserTransport: Transport = { sendBytes: sendXhr, postJson: fetchJson };

function failureOf(body: unknown, fallback: UploadFailureCode): { code: UploadFailureCode; detail?: string } {
  const answer = (body ?? {}) as ApiAnswer;
  const code = answer.code === "COD.3" ? "COD.3" : answer.code === "COD.2" ? "COD.2" : fallback;
  return { code, detail: typeof answer.detail === "string" ? answer.detail : undefined };
}

const ABORTED: UploadOutcome = { ok: false, aborted: true };

/** The registered job's id from the server's answer, when it is one. */
function idOf(value: unknown): { fileId?: string } {
  return typeof value === "string" && /^[0-9a-fA-F]{24}$/.test(value) ? { fileId: value } : {};
}

/** Local store: one multipart POST; the server stores and registers the file. */
export function uploadToLocalStore(
  file: File,
  onProgress: ProgressHandler,
  transport: Transport = browserTransport,
  target?: FileTarget,
): UploadHandle {
  const controller = new AbortController();
  const form = new FormData();
  if (target) form.append(FILE_TARGET_FIELD, target); // before the file: a refused value costs no transfer
  form.append("files", file, file.name);
  const promise = transport
    .sendBytes("POST", "/api/upload", form, {
      headers: { Accept: "application/json" },
      onProgress,
      signal: controller.signal,
    })
    .then((result): UploadOutcome => {
      if ("aborted" in result || controller.signal.aborted) return ABORTED;
      if ("networkError" in result) return { ok: false, code: "COD.2" };
      const answer = (result.body ?? {}) as ApiAnswer;
      if (result.status >= 200 && result.status < 300 && answer.ok === true)
        return { ok: true, ...idOf((answer.files as Array<{ id?: unknown }> | undefined)?.[0]?.id) };
      return { ok: false, ...failureOf(result.body, "COD.2") };
    });
  return { promise, abort: () => controller.abort() };
}

type CreateAnswer =
  | {
      ok: true;
      bucket: string;
      ticket: string;
      mode: "single";
      key: string;
      url: string;
      headers: Record<string, string>;
    }
  | {
      ok: true;
      bucket: string;
      ticket: string;
      mode: "multipart";
      key: string;
      uploadId: string;
      partSize: number;
      partCount: number;
    };

export const S3_API = "/api/uploads/s3";
export const REGISTER_API = "/api/files/register";

const ok2xx = (r: BytesResult): r is { status: number; body: unknown; etag: string | null } =>
  "status" in r && r.status >= 200 && r.status < 300;

/**
 * S3: presigned PUT or multipart straight to the bucket, then the registration.
 * Multipart parts go up one after another, and each part's URL is signed just before that part is
 * sent: presigned URLs live 5 minutes and a 64 MB part can take longer than that on a slow link,
 * so URLs signed in advance would expire. S3 checks expiry when a request starts, so a part that
 * started in time finishes. A 403 (expired or otherwise refused URL) gets one fresh signature and
 * one more try. Cancelling (or any failure) aborts the multipart upload on the server, so no parts
 * stay behind; the handle's promise settles after that abort was sent.
 */
export function uploadToS3(
  file: File,
  onProgress: ProgressHandler,
  clientName?: string,
  transport: Transport = browserTransport,
  target?: FileTarget,
): UploadHandle {
  const controller = new AbortController();
  const signal = controller.signal;
  /** The ticket of a multipart upload that is open on the server (created, not completed or aborted). */
  let openMultipart: string | null = null;

  const abortOnServer = async () => {
    const ticket = openMultipart;
    openMultipart = null;
    if (ticket) await transport.postJson(S3_API, { intent: "abort", ticket }).catch(() => undefined);
  };

  const signPart = async (ticket: string, partNumber: number): Promise<string | { failure: UploadOutcome }> => {
    const signed = await transport.postJson(
      S3_API,
      { intent: "sign-parts", ticket, partNumbers: [partNumber] },
      signal,
    );
    const url = (signed.body?.parts as Array<{ partNumber: number; url: string }> | undefined)?.find(
      (p) => p.partNumber === partNumber,
    )?.url;
    if (signed.status !== 200 || !signed.body?.ok || !url)
      return { failure: { ok: false, ...failureOf(signed.body, "COD.2") } };
    return url;
  };

  const run = async (): Promise<UploadOutcome> => {
    // Not cancelled mid-flight: if it opened a multipart upload, the answer is needed to abort it.
    const created = await transport.postJson(S3_API, {
      intent: "create",
      fileName: file.name,
      size: file.size,
      contentType: file.type || undefined,
    });
    if (created.status !== 200 || !created.body?.ok) return { ok: false, ...failureOf(created.body, "COD.2") };
    const plan = created.body as unknown as CreateAnswer;
    if (plan.mode === "multipart") openMultipart = plan.ticket;
    if (signal.aborted) return ABORTED;

    if (plan.mode === "single") {
      const put = await transport.sendBytes("PUT", plan.url, file, { headers: plan.headers, onProgress, signal });
      if ("aborted" in put) return ABORTED;
      if (!ok2xx(put)) return { ok: false, code: "COD.2" };
    } else {
      const parts: Array<{ partNumber: number; etag: string }> = [];
      for (let partNumber = 1; partNumber <= plan.partCount; partNumber++) {
        const start = (partNumber - 1) * plan.partSize;
        const blob = file.slice(start, Math.min(file.size, start + plan.partSize));
        const report: ProgressHandler = (loaded) => onProgress(start + loaded, file.size);
        let put: BytesResult | null = null;
        for (let attempt = 0; attempt < 2; attempt++) {
          const url = await signPart(plan.ticket, partNumber);
          if (typeof url !== "string") return url.failure;
          if (signal.aborted) return ABORTED;
          put = await transport.sendBytes("PUT", url, blob, { onProgress: report, signal });
          if (!("status" in put) || put.status !== 403) break; // only a refused signature is worth a fresh one
        }
        if (!put || "aborted" in put) return ABORTED;
        // The bucket's CORS rule must expose ETag for the browser to read it.
        if (!ok2xx(put) || !put.etag) return { ok: false, code: "COD.2" };
        parts.push({ partNumber, etag: put.etag });
      }
      const completed = await transport.postJson(S3_API, { intent: "complete", ticket: plan.ticket, parts }, signal);
      if (completed.status !== 200 || !completed.body?.ok) return { ok: false, ...failureOf(completed.body, "COD.2") };
      openMultipart = null;
    }
    if (signal.aborted) return ABORTED;
    onProgress(file.size, file.size);

    const registered = await transport
      .postJson(
        REGISTER_API,
        {
          clientName,
          originalName: file.name,
          srcBucket: plan.bucket,
          srcKey: plan.key,
          ticket: plan.ticket,
          ...(target ? { [FILE_TARGET_FIELD]: target } : {}),
        },
        signal,
      )
      .catch(() => null);
    if (signal.aborted) return ABORTED;
    if (registered?.status !== 200 || !registered.body?.ok)
      return { ok: false, ...failureOf(registered?.body, "COD.3") };
    return { ok: true, ...idOf(registered.body.id) };
  };

  const promise = run()
    .catch((): UploadOutcome => (signal.aborted ? ABORTED : { ok: false, code: "COD.2" }))
    .then(async (outcome) => {
      // Cancelled or failed: an open multipart upload is aborted so its parts do not linger.
      if (!outcome.ok) await abortOnServer();
      return signal.aborted ? ABORTED : outcome;
    });
  return { promise, abort: () => controller.abort() };
}
