import { createReadableStreamFromReadable, redirect } from "@remix-run/node";
import { contentDisposition } from "~/services/storage/s3.server";
import type { DownloadGrant } from "~/services/storage/signed-link.server";
import { getLocalStore, getS3Store, LOCAL_BUCKET, portalDownloadUrl } from "~/services/storage.server";

/**
 * Downloads from /repo/format, for both stores, through the portal's own link `/download/{token}` (an HMAC-signed
 * grant for one bucket/key/file name, valid 5 minutes, used by a signed-in browser):
 * - local store: the route streams the file;
 * - S3: the route checks the object (HeadObject) and only then sends the browser on to a presigned GET.
 * So a failure after the link was issued — the object gone, the link expired, the store down — is seen by the
 * portal while the browser is still on its way, and answered on the page the download came from with the spec's
 * alert (spec 000 §8), with and without JavaScript. Only the moment between the check and S3's answer to the
 * presigned GET (milliseconds) is left to S3's own error page (docs/decisions.md, "Uploads and jobs").
 */

/** The link the browser follows to download `key` of `bucket` under `filename`. Local keys outside the store throw. */
export function portalDownloadLink(bucket: string, key: string, filename: string, now = Date.now()): string {
  return portalDownloadUrl(bucket, key, filename, now);
}

/** The answer to a valid grant: the local file as an attachment, or a redirect to S3's presigned GET. Throws when the object cannot be had. */
export async function downloadResponse(grant: DownloadGrant): Promise<Response> {
  if (grant.bucket !== LOCAL_BUCKET) {
    const store = getS3Store(grant.bucket);
    await store.size(grant.key); // HeadObject: a missing object or an unreachable store fails here, not at S3
    return redirect(await store.getDownloadUrl(grant.key, grant.filename), {
      headers: { "Cache-Control": "no-store" },
    });
  }
  const { stream, size } = await getLocalStore().openReadStream(grant.key);
  return new Response(createReadableStreamFromReadable(stream), {
    status: 200,
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(size),
      "Content-Disposition": contentDisposition(grant.filename),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
