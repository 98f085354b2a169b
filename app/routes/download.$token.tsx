import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { messages } from "~/messages";
import { getLocalStore, LOCAL_BUCKET, verifyDownloadToken } from "~/services/storage.server";
import { contentDisposition } from "~/services/storage/s3.server";

/**
 * GET /download/{token} — the local store's presigned GET: the token (issued by getDownloadUrl)
 * is an HMAC-signed grant for one bucket/key/file name that expires after 5 minutes. Like an S3
 * presigned URL it is a bearer link; a tampered, expired or malformed token gets 403 with the
 * spec's download error, and the file is streamed, never read whole.
 */
function failure(status: number) {
  return new Response(messages.downloadFailed, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

export async function loader({ params }: LoaderFunctionArgs) {
  const check = verifyDownloadToken(params.token ?? "", getConfig().session.secret);
  if (!check.ok || check.grant.bucket !== LOCAL_BUCKET) return failure(403);
  try {
    const { stream, size } = await getLocalStore().openReadStream(check.grant.key);
    return new Response(createReadableStreamFromReadable(stream), {
      status: 200,
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(size),
        "Content-Disposition": contentDisposition(check.grant.filename),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch {
    return failure(404);
  }
}
