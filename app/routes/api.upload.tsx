// Screen: Upload API: POST /api/upload, multipart upload of one or more files.
import { type ActionFunctionArgs, json, redirect } from "@remix-run/node";
import { UPLOAD_MESSAGE_MS } from "~/features/uploads-and-jobs/timed-notices";
import { messages } from "~/messages";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { handleUpload, UPLOAD_PAGE, uploadFailureResponse } from "~/platform/import/upload.server";
import { redirectWithToast } from "~/shared/toast.server";

/**
 * POST /api/upload — multipart field `files` (one or more, at most MAX_FILES_PER_POST), both stores,
 * and optionally `target` (the "Tipo de carga": data | explorer | reports; absent → data; anything else → 400):
 * each file is streamed under a generated key to DATA_DIR/uploads, or to the bucket as a multipart
 * upload in bounded parts (the no-JavaScript path with STORAGE=s3), never held whole in memory.
 * The extension allow-list is checked before any byte is kept and the per-file size limit while
 * streaming; the body as a whole may not declare more than the files cap × the limit. Each stored
 * file is then registered as a job (status 0).
 *
 * fetch/XHR with `Accept: application/json` get JSON; a plain form post is redirected back to
 * /captura/manual with a toast that hides after 5 s (success) or `?error=COD.2|COD.3` (failure).
 *   COD.2 = the transfer failed (refused extension or size, broken stream) — nothing is kept;
 *   COD.3 = the bytes arrived but the registration failed — the stored file is removed.
 */

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/api.upload", request);
  const wantsJson = (request.headers.get("Accept") ?? "").includes("application/json");
  const result = await handleUpload(request, user.email);
  if ("failure" in result) {
    const { failure } = result;
    if (wantsJson) return uploadFailureResponse(failure);
    // A refused "Tipo de carga" says why (the codes' alerts speak of the transfer, which did not start).
    if (failure.field === "target")
      return redirectWithToast(UPLOAD_PAGE, {
        durationMs: UPLOAD_MESSAGE_MS,
        type: "error",
        description: failure.detail,
      });
    return redirect(`${UPLOAD_PAGE}?error=${encodeURIComponent(failure.code)}`);
  }
  if (wantsJson) return json({ ok: true, files: result.files });
  return redirectWithToast(UPLOAD_PAGE, {
    durationMs: UPLOAD_MESSAGE_MS,
    type: "success",
    description: messages.uploaded(result.files.map((f) => f.originalName)),
  });
}
