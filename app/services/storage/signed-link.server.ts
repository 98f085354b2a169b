import crypto from "node:crypto";

/**
 * The local store's equivalent of a presigned GET: `/download/{token}`, where the token carries
 * bucket, key, file name and expiry, and an HMAC-SHA256 over them with the session secret.
 */

export const DOWNLOAD_LINK_TTL_MS = 5 * 60 * 1000;

export type DownloadGrant = { bucket: string; key: string; filename: string; expiresAt: number };

function mac(secret: string, payload: string): Buffer {
  return crypto.createHmac("sha256", secret).update(`download:${payload}`).digest();
}

export function signDownloadToken(grant: DownloadGrant, secret: string): string {
  const payload = Buffer.from(
    JSON.stringify({ b: grant.bucket, k: grant.key, f: grant.filename, e: grant.expiresAt }),
    "utf8",
  ).toString("base64url");
  return `${payload}.${mac(secret, payload).toString("base64url")}`;
}

export type TokenCheck =
  | { ok: true; grant: DownloadGrant }
  | { ok: false; reason: "malformed" | "signature" | "expired" };

export function verifyDownloadToken(token: string, secret: string, now = Date.now()): TokenCheck {
  const parts = token.split(".");
  if (parts.length !== 2 || !parts[0] || !parts[1] || token.length > 4096) return { ok: false, reason: "malformed" };
  const [payload, signature] = parts;
  const given = Buffer.from(signature, "base64url");
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
    return { ok: false, reason: "signature" };
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const d = data as Record<string, unknown>;
  if (typeof d?.b !== "string" || typeof d.k !== "string" || typeof d.f !== "string" || typeof d.e !== "number") {
    return { ok: false, reason: "malformed" };
  }
  if (d.e <= now) return { ok: false, reason: "expired" };
  return { ok: true, grant: { bucket: d.b, key: d.k, filename: d.f, expiresAt: d.e } };
}
