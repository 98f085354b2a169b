import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { assertSameOrigin, requireAccess } from "~/auth.server";
import { messages } from "~/messages";
import { handleUpload, UPLOAD_PAGE, uploadTexts } from "~/services/upload.server";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * POST /api/upload — multipart field `files` (one or more), local store only.
 * Each file is streamed to DATA_DIR/uploads under a generated key, never held whole in memory;
 * the extension allow-list and the size limit (Content-Length first, then while streaming) are
 * checked before any byte is kept. Each stored file is then registered as a job (status 0).
 *
 * fetch/XHR with `Accept: application/json` get JSON; a plain form post is redirected back to
 * /captura/manual with a toast (success) or `?error=COD.2|COD.3` (failure).
 *   COD.2 = the transfer failed (refused extension or size, broken stream) — nothing is kept;
 *   COD.3 = the bytes arrived but the registration failed — the stored file is removed.
 */

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireAccess(request, UPLOAD_PAGE);
  assertSameOrigin(request);
  const wantsJson = (request.headers.get("Accept") ?? "").includes("application/json");
  const result = await handleUpload(request, user.email);
  if ("failure" in result) {
    const { failure } = result;
    const message = failure.code === "COD.3" ? messages.uploadRegistrationFailed : messages.uploadFailed;
    if (wantsJson) return json({ ok: false, code: failure.code, message, detail: failure.detail }, { status: failure.status });
    return redirect(`${UPLOAD_PAGE}?error=${encodeURIComponent(failure.code)}`);
  }
  if (wantsJson) return json({ ok: true, files: result.files });
  return redirectWithToast(UPLOAD_PAGE, { type: "success", description: uploadTexts.uploaded(result.files.length) });
}
