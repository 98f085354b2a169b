// Screen: Upload API: POST /api/uploads/s3, presigned direct uploads to the bucket.
import { type ActionFunctionArgs, json } from "@remix-run/node";
import { z } from "zod";
import { getConfig } from "~/config.server";
import { messages } from "~/messages";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { rejectionStatus } from "~/services/storage/keys.server";
import { signUploadTicket, UPLOAD_TICKET_TTL_MS, verifyUploadTicket } from "~/services/storage/upload-ticket.server";
import {
  assertUploadAllowed,
  generateStorageKey,
  getS3Store,
  UploadRejectedError,
  uploadLimits,
} from "~/services/storage.server";
import { readLimitedJson } from "~/shared/request-body.server";

/**
 * POST /api/uploads/s3 (JSON) — presigned direct uploads to the private bucket, for the signed-in user:
 *   { intent: "create", fileName, size, contentType? }  → single presigned PUT, or a multipart upload
 *   { intent: "sign-parts", ticket, partNumbers }       → presigned UploadPart URLs (the browser asks
 *                                                         for each part just before sending it)
 *   { intent: "complete", ticket, parts: [{partNumber, etag}] }
 *   { intent: "abort", ticket }
 * Every answer after "create" needs the ticket "create" returned, bound to this user and key.
 * The size limit is the server's too: "create" refuses a declared size over it, and "complete"
 * checks the parts S3 really holds (ListParts) — numbers within the planned count, total within
 * the limit — and aborts the upload (COD.2) when they are not. New objects are tagged pending=1
 * until /api/files/register accepts them.
 */
const schema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("create"),
    fileName: z.string().trim().min(1).max(255),
    size: z.number().int().min(0),
    contentType: z.string().max(200).optional(),
  }),
  z.object({
    intent: z.literal("sign-parts"),
    ticket: z.string().min(10).max(8192),
    partNumbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(100),
  }),
  z.object({
    intent: z.literal("complete"),
    ticket: z.string().min(10).max(8192),
    parts: z
      .array(z.object({ partNumber: z.number().int().min(1).max(10_000), etag: z.string().min(1).max(200) }))
      .min(1)
      .max(10_000),
  }),
  z.object({ intent: z.literal("abort"), ticket: z.string().min(10).max(8192) }),
]);

/** The largest request: a "complete" naming 10,000 parts is about 1 MB of JSON. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

const fail = (status: number, detail: string) =>
  json({ ok: false, code: "COD.2", message: messages.uploadFailed, detail }, { status });

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/api.uploads.s3", request);
  const config = getConfig();
  if (config.storage.kind !== "s3") return fail(409, messages.uploadLocalOnly);
  const read = await readLimitedJson(request, MAX_BODY_BYTES);
  if (!read.ok) return fail(read.status, messages.badRequest);
  const parsed = schema.safeParse(read.value);
  if (!parsed.success) return fail(400, messages.badRequest);
  const body = parsed.data;
  const store = getS3Store();
  const secret = config.session.secret;

  try {
    if (body.intent === "create") {
      assertUploadAllowed(body.fileName, body.size, uploadLimits());
      const key = generateStorageKey(body.fileName);
      const plan = await store.createUpload({ key, size: body.size, contentType: body.contentType });
      const multipart = plan.mode === "multipart" ? { uploadId: plan.uploadId, partCount: plan.partCount } : {};
      const ticket = signUploadTicket(
        {
          user: user.email,
          bucket: store.bucket,
          key,
          originalName: body.fileName,
          ...multipart,
          expiresAt: Date.now() + UPLOAD_TICKET_TTL_MS,
        },
        secret,
      );
      return json({ ok: true, bucket: store.bucket, ticket, ...plan });
    }
    const ticket = verifyUploadTicket(body.ticket, secret);
    if (
      !ticket ||
      ticket.user !== user.email ||
      ticket.bucket !== store.bucket ||
      !ticket.uploadId ||
      !ticket.partCount
    )
      return fail(403, messages.uploadNotAuthorized);
    if (body.intent === "sign-parts") {
      const partCount = ticket.partCount;
      if (body.partNumbers.some((n) => n > partCount)) return fail(400, messages.uploadPartsMismatch);
      return json({ ok: true, parts: await store.signParts(ticket.key, ticket.uploadId, body.partNumbers) });
    }
    if (body.intent === "complete") {
      const { bytes } = await store.completeUpload(ticket.key, ticket.uploadId, body.parts, {
        maxBytes: uploadLimits().maxBytes,
        partCount: ticket.partCount,
      });
      return json({ ok: true, key: ticket.key, bucket: ticket.bucket, bytes });
    }
    await store.abortUpload(ticket.key, ticket.uploadId);
    return json({ ok: true });
  } catch (error) {
    if (error instanceof UploadRejectedError) return fail(rejectionStatus(error), error.message);
    return fail(502, messages.storageUnavailable);
  }
}
