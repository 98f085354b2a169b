import type { RequestHandler } from "express";

/**
 * GET /healthz: the process is up and serving (liveness; readiness with the database is /readyz). Also served by
 * bench/load/floor-app.tsx, so the floor bench compares Remix documents with this very handler.
 */
export const healthz: RequestHandler = (_req, res) => {
  res.status(200).json({ status: "ok" });
};
