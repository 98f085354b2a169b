/**
 * Serves the Brotli or gzip copy a build wrote beside a static file (server/precompress-assets.ts)
 * when the browser accepts it: the compression was done once at build time, at the highest level.
 * Anything else falls through to express.static.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".woff": "font/woff",
};

/** Which precompressed copy to send for an Accept-Encoding header: br before gzip, honouring q=0. */
export function pickEncoding(acceptEncoding: string | undefined): ("br" | "gzip")[] {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name, q ? Number(q[1]) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  return (["br", "gzip"] as const).filter(ok);
}

export function precompressed(root: string, cacheControl: string): RequestHandler {
  const base = path.resolve(root);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const type = TYPES[path.extname(req.path).toLowerCase()];
    if (!type) return next();
    const file = path.resolve(base, `.${decodeURIComponent(req.path)}`);
    if (!file.startsWith(`${base}${path.sep}`)) return next();
    res.vary("Accept-Encoding");
    for (const encoding of pickEncoding(req.get("accept-encoding"))) {
      const candidate = `${file}.${encoding === "br" ? "br" : "gz"}`;
      if (!existsSync(candidate)) continue;
      res.setHeader("Content-Type", type);
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Cache-Control", cacheControl);
      res.setHeader("Content-Length", String(statSync(candidate).size));
      if (req.method === "HEAD") return res.end();
      return res.sendFile(
        candidate,
        { headers: { "Content-Type": type, "Content-Encoding": encoding, "Cache-Control": cacheControl } },
        (error) => {
          if (error) next(error);
        },
      );
    }
    next();
  };
}
