import crypto from "node:crypto";
import type { RequestHandler } from "express";

export type CspOptions = {
  nonce: string;
  /** AWS region of the QuickSight account: its embed origin is allowed in frames. */
  awsRegion: string;
  /** Origins the browser may be sent to after a form post (SSO identity providers). */
  formActionOrigins?: string[];
  /** Origins the page may send requests to besides its own (the S3 bucket for direct uploads). */
  connectOrigins?: string[];
  /**
   * The object store's origins as the browser reaches them: uploads (connect-src), downloads that a form post
   * redirects to (form-action) and images served from presigned URLs (img-src).
   */
  storageOrigins?: string[];
  /** Vite dev server: allows its HMR websocket. */
  dev?: boolean;
};

export function createNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

/**
 * The enforced Content-Security-Policy. Scripts need the per-request nonce; styles allow inline
 * because React, Radix and the table's sticky columns render `style` attributes on the server.
 */
export function buildCsp({
  nonce,
  awsRegion,
  formActionOrigins = [],
  connectOrigins = [],
  storageOrigins = [],
  dev = false,
}: CspOptions): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...storageOrigins],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...new Set([...connectOrigins, ...storageOrigins]), ...(dev ? ["ws:", "wss:"] : [])],
    // 'self': the report viewer shows a stored PDF inline from the portal's own address.
    "frame-src": ["'self'", `https://${awsRegion}.quicksight.aws.amazon.com`],
    "frame-ancestors": ["'self'"],
    "form-action": ["'self'", ...new Set([...formActionOrigins, ...storageOrigins])],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/**
 * Where the browser reaches the bucket (presigned uploads and downloads). AWS: the bucket's virtual-hosted and
 * path-style endpoints of the region. An S3-compatible store: the public endpoint's origin, and with
 * virtual-hosted addressing also bucket.<host> (what the SDK signs).
 */
export function s3UploadOrigins(
  bucket: string,
  region: string,
  store: { publicEndpoint?: string; forcePathStyle?: boolean } = {},
): string[] {
  if (!store.publicEndpoint)
    return [`https://${bucket}.s3.${region}.amazonaws.com`, `https://s3.${region}.amazonaws.com`];
  const url = new URL(store.publicEndpoint);
  if (store.forcePathStyle) return [url.origin];
  return [`${url.protocol}//${bucket}.${url.host}`, url.origin];
}

/** The origin of a URL, or nothing when it is not a URL. */
export function originOf(url: string | undefined): string[] {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

/** Sets res.locals.cspNonce and the security headers of every response. */
export function securityHeaders(options: Omit<CspOptions, "nonce">): RequestHandler {
  return (req, res, next) => {
    const nonce = createNonce();
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", buildCsp({ ...options, nonce }));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    // req.secure honours X-Forwarded-Proto because the host trusts its proxy.
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
