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
export function buildCsp({ nonce, awsRegion, formActionOrigins = [], connectOrigins = [], dev = false }: CspOptions): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...connectOrigins, ...(dev ? ["ws:", "wss:"] : [])],
    "frame-src": [`https://${awsRegion}.quicksight.aws.amazon.com`],
    "frame-ancestors": ["'self'"],
    "form-action": ["'self'", ...formActionOrigins],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** Where the browser sends direct S3 uploads: the bucket's virtual-hosted and path-style endpoints. */
export function s3UploadOrigins(bucket: string, region: string): string[] {
  return [`https://${bucket}.s3.${region}.amazonaws.com`, `https://s3.${region}.amazonaws.com`];
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
