import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { assertSameOrigin, requireAccess } from "~/auth.server";
import { getConfig } from "~/config.server";
import { messages } from "~/messages";
import { registerStoredObject } from "~/models/file-jobs.server";
import { deleteObject } from "~/services/storage.server";
import { verifyUploadTicket } from "~/services/storage/upload-ticket.server";

/**
 * POST /api/files/register — the spec's /newFile after a direct (S3) upload:
 * { clientName, originalName, srcBucket, srcKey, ticket }. The user is the session's, never the
 * body's; `ticket` (from /api/uploads/s3) proves the server issued that bucket/key to this user.
 * A failed registration deletes the stored object (no orphan) and answers COD.3.
 */
const registerSchema = z.object({
  clientName: z.string().trim().min(1).max(100).optional(),
  originalName: z.string().trim().min(1).max(255),
  srcBucket: z.string().trim().min(1).max(255),
  srcKey: z.string().trim().min(1).max(1024),
  ticket: z.string().min(10).max(8192),
  // Present in the spec's payload; ignored in favour of the session.
  user: z.unknown().optional(),
});

async function readBody(request: Request): Promise<unknown> {
  if ((request.headers.get("Content-Type") ?? "").includes("application/json")) return request.json().catch(() => null);
  const form = await request.formData();
  return Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string"));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireAccess(request, "/captura/manual");
  assertSameOrigin(request);
  const parsed = registerSchema.safeParse(await readBody(request));
  if (!parsed.success) {
    return json({ ok: false, code: "COD.3", message: messages.uploadRegistrationFailed, issues: parsed.error.flatten().fieldErrors }, { status: 400 });
  }
  const body = parsed.data;
  const config = getConfig();
  const ticket = verifyUploadTicket(body.ticket, config.session.secret);
  const matches =
    ticket !== null &&
    ticket.user === user.email &&
    ticket.bucket === body.srcBucket &&
    ticket.key === body.srcKey &&
    ticket.originalName === body.originalName &&
    (body.clientName === undefined || body.clientName === config.tenantId);
  if (!matches) return json({ ok: false, code: "COD.3", message: messages.uploadRegistrationFailed }, { status: 403 });
  try {
    const id = await registerStoredObject(
      { originalName: body.originalName, key: body.srcKey, bucket: body.srcBucket, user: user.email },
      () => deleteObject(body.srcBucket, body.srcKey),
    );
    return json({ ok: true, id: String(id) });
  } catch {
    return json({ ok: false, code: "COD.3", message: messages.uploadRegistrationFailed }, { status: 500 });
  }
}
