// Screen: Upload API: POST /api/files/register, registers a file sent straight to S3 (spec /newFile).
import { type ActionFunctionArgs, json } from "@remix-run/node";
import { z } from "zod";
import { getConfig } from "~/config.server";
import { messages } from "~/messages";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { parseFileTarget, registerUpload, uploadFailureResponse } from "~/platform/import/upload.server";
import { verifyUploadTicket } from "~/services/storage/upload-ticket.server";
import { type JsonBody, readLimitedJson, readLimitedText } from "~/shared/request-body.server";

/**
 * POST /api/files/register — the spec's /newFile after a direct (S3) upload:
 * { clientName, originalName, srcBucket, srcKey, ticket, target? } as JSON (or a urlencoded form), at most
 * MAX_BODY_BYTES. The user is the session's, never the body's; `ticket` (from /api/uploads/s3)
 * proves the server issued that bucket/key to this user. Before registering, the object is
 * looked up (HeadObject): missing → COD.2; over the size limit → deleted, COD.2. A ticket is
 * single-use: the same object cannot be registered twice (unique index on bucket + key; 409).
 * A failed registration deletes the stored object (no orphan) and answers COD.3.
 */
const registerSchema = z.object({
  clientName: z.string().trim().min(1).max(100).optional(),
  originalName: z.string().trim().min(1).max(255),
  srcBucket: z.string().trim().min(1).max(255),
  srcKey: z.string().trim().min(1).max(1024),
  ticket: z.string().min(10).max(8192),
  // The "Tipo de carga" (data | explorer | reports), checked below so a bad value gets its own message.
  target: z.unknown().optional(),
  // Present in the spec's payload; ignored in favour of the session.
  user: z.unknown().optional(),
});

/** The payload is a few short strings and a ticket; nothing legitimate comes near this. */
const MAX_BODY_BYTES = 16 * 1024;

const refuse = (status: number, extra: { detail?: string; issues?: unknown } = {}) =>
  json({ ok: false, code: "COD.3", message: messages.uploadRegistrationFailed, ...extra }, { status });

/** The body as JSON or as a urlencoded form, at most MAX_BODY_BYTES; 400/413 otherwise. */
async function readBody(request: Request): Promise<JsonBody> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") return readLimitedJson(request, MAX_BODY_BYTES);
  if (type !== "application/x-www-form-urlencoded") return { ok: false, status: 400 };
  const text = await readLimitedText(request, MAX_BODY_BYTES).catch(() => null);
  return text === null
    ? { ok: false, status: 413 }
    : { ok: true, value: Object.fromEntries(new URLSearchParams(text)) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/api.files.register", request);
  const body = await readBody(request);
  if (!body.ok) return refuse(body.status, { detail: messages.uploadRegisterBadRequest });
  const parsed = registerSchema.safeParse(body.value);
  if (!parsed.success) return refuse(400, { issues: parsed.error.flatten().fieldErrors });
  const input = parsed.data;
  const target = parseFileTarget(input.target);
  if (!target.ok) return uploadFailureResponse(target.failure);
  const config = getConfig();
  const ticket = verifyUploadTicket(input.ticket, config.session.secret);
  const matches =
    ticket !== null &&
    ticket.user === user.email &&
    ticket.bucket === input.srcBucket &&
    ticket.key === input.srcKey &&
    ticket.originalName === input.originalName &&
    (input.clientName === undefined || input.clientName === config.tenantId);
  if (!matches) return refuse(403);
  const registered = await registerUpload(
    {
      originalName: input.originalName,
      key: input.srcKey,
      bucket: input.srcBucket,
      user: user.email,
      target: target.target,
    },
    { verifySize: true },
  );
  if (!registered.ok) return uploadFailureResponse(registered.failure);
  return json({ ok: true, id: registered.id });
}
