// Screen: Download link: GET /download/{token}.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { messages } from "~/messages";
import { recordedDownload } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { isLocalPath } from "~/platform/auth/return-to.server";
import { hrFileView } from "~/platform/import/hr-file-view.server";
import { downloadResponse } from "~/services/storage/download-link.server";
import { verifyDownloadToken } from "~/services/storage.server";
import { redirectWithToast } from "~/shared/toast.server";

/**
 * GET /download/{token} — the portal's download link for both stores (features/uploads-and-jobs/download-link.server.ts):
 * the token is an HMAC-signed grant for one bucket/key/file name that expires after 5 minutes, used by a
 * signed-in browser. A local file is streamed, never read whole; an S3 object is checked and the browser sent
 * on to a presigned GET. A tampered, expired or malformed token, an object that is gone or a store that does
 * not answer never ends on a bare error page: the browser goes back to the page it came from (its same-origin
 * Referer; else `/`, the landing) with the spec's alert "Ocorreu um erro ao fazer o download." (spec 000 §8),
 * which works with and without JavaScript.
 */
async function failure(request: Request): Promise<Response> {
  return redirectWithToast(
    sameOriginReferrerPath(request) ?? "/",
    { type: "error", description: messages.downloadFailed },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** The path of a same-origin Referer that is not a download link itself (no redirect loop, no open redirect). */
function sameOriginReferrerPath(request: Request): string | null {
  const referer = request.headers.get("Referer");
  if (!referer) return null;
  try {
    const from = new URL(referer);
    const own = new URL(request.url).origin;
    if (from.origin !== own && !getConfig().allowedOrigins.includes(from.origin)) return null;
    const path = `${from.pathname}${from.search}`;
    if (/^\/download\//i.test(from.pathname) || !isLocalPath(path)) return null;
    return path;
  } catch {
    return null;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/download.$token", request);
  const check = verifyDownloadToken(params.token ?? "", getConfig().session.secret);
  if (!check.ok) return failure(request);
  try {
    // HR data leaves as /ij/rh shows it, whoever issued the link (hr-file-view.server.ts).
    const hrView = await hrFileView(check.grant, user, request.signal);
    const { bucket, key, filename } = check.grant;
    // The download in the audit trail before the file leaves (not for a failure: see below).
    return await recordedDownload(hrView ?? (await downloadResponse(check.grant)), {
      actor: user,
      object: { kind: "file", id: `${bucket}/${key}`, label: filename },
      details: hrView ? { via: "download", hrView: true } : { via: "download" },
    });
  } catch {
    return failure(request);
  }
}
