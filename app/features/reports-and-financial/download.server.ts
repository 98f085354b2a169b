import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { messages } from "~/messages";
import { fileClassOfObject } from "~/models/files.server";
import { getDownloadUrl, portalDownloadUrl, storedObjectState } from "~/services/storage.server";

/**
 * The download of a stored document from a report screen (spec 001 §7 "POST /download … presigned_url"): the
 * form names a record, the server finds it (only among the records the screen may serve), checks the object
 * is in the store and answers with a 5-minute link — the local store's signed /download/{token} or S3's
 * presigned GET. With JavaScript the page follows the link (the file downloads, the page stays); without, the
 * browser is redirected to it. Anything missing answers "Ocorreu um erro ao fazer o download." (spec 001 §8)
 * on the same page, and nothing is written.
 */

export const downloadFields = {
  intent: z.literal("download"),
  // "fetch" when the page's script sent it (answer with the link), else a plain form post (redirect).
  mode: z.enum(["fetch", "document"]).catch("document"),
};

/** The download form's fields (`downloadFields` and `shape`), or null when they do not validate. */
export async function readDownloadForm<Shape extends z.ZodRawShape>(request: Request, shape: Shape) {
  const form = await request.formData().catch(() => null);
  const parsed = z.object({ ...downloadFields, ...shape }).safeParse(form ? Object.fromEntries(form) : null);
  return parsed.success ? parsed.data : null;
}

export type DownloadResult = { ok: true; url: string; id: string } | { ok: false; error: string };

export type DownloadTarget = { bucket: string; key: string; filename: string };

export function downloadFailure(status: number) {
  return data<DownloadResult>({ ok: false, error: messages.downloadFailed }, { status });
}

/**
 * The link for a present object. A repository upload that is HR data, or not classified yet, leaves through the
 * portal's link (/download/{token}), which scopes and masks it as /ij/rh does; anything else (a plain upload, a
 * document the portal wrote) through the store's own link: on S3 a presigned GET straight to the bucket.
 */
async function downloadLink(target: DownloadTarget): Promise<string> {
  const upload = await fileClassOfObject(target.bucket, target.key);
  if (upload && upload.dataClass !== "plain") return portalDownloadUrl(target.bucket, target.key, target.filename);
  return getDownloadUrl(target.bucket, target.key, target.filename);
}

/** Answers a download request for `target` (null: no such record for this screen). */
export async function answerDownload(target: DownloadTarget | null, mode: "fetch" | "document") {
  const found = target ? await storedObjectState(target.bucket, target.key) : "missing";
  const url = target && found === "present" ? await downloadLink(target).catch(() => null) : null;
  if (!url) return downloadFailure(found === "missing" ? 404 : 502);
  if (mode === "fetch") return data<DownloadResult>({ ok: true, url, id: crypto.randomUUID() });
  return redirect(url);
}
