import crypto from "node:crypto";

/**
 * A browser-held proof that the server issued an upload target to this user: it binds the
 * user's e-mail, bucket, generated key, original name and (for multipart) the upload id, with an
 * expiry, under an HMAC of the session secret. Signing parts, completing, aborting and registering
 * (/api/files/register, the spec's /newFile) all require it, so nobody can register or touch a
 * key the server did not hand to them.
 */

export const UPLOAD_TICKET_TTL_MS = 24 * 60 * 60 * 1000;

export type UploadTicket = {
  user: string;
  bucket: string;
  key: string;
  originalName: string;
  /** Multipart only: the upload id and the number of parts the server planned (no part beyond it is signed or completed). */
  uploadId?: string;
  partCount?: number;
  expiresAt: number;
};

function mac(secret: string, payload: string) {
  return crypto.createHmac("sha256", secret).update(`upload:${payload}`).digest();
}

export function signUploadTicket(ticket: UploadTicket, secret: string): string {
  const payload = Buffer.from(JSON.stringify(ticket), "utf8").toString("base64url");
  return `${payload}.${mac(secret, payload).toString("base64url")}`;
}

export function verifyUploadTicket(token: string, secret: string, now = Date.now()): UploadTicket | null {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined || token.length > 8192) return null;
  const given = Buffer.from(signature, "base64url");
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  try {
    const t = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as UploadTicket;
    if (
      typeof t.user !== "string" ||
      typeof t.bucket !== "string" ||
      typeof t.key !== "string" ||
      typeof t.originalName !== "string"
    )
      return null;
    if (typeof t.expiresAt !== "number" || t.expiresAt <= now) return null;
    if (
      t.uploadId !== undefined &&
      (typeof t.uploadId !== "string" || !Number.isInteger(t.partCount) || (t.partCount as number) < 1)
    )
      return null;
    return t;
  } catch {
    return null;
  }
}
