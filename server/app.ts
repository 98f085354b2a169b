import { readdirSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import express, { type Express } from "express";
import type { ViteDevServer } from "vite";
import type { Config } from "../app/config.server";
import type { ErrorReporter } from "../app/shared/error-log.server";
import type { Logger } from "../app/shared/logger.server";
import { limitFromBuild, limitRequestBodies } from "./body-limit";
import { hostErrorHandler } from "./client-errors";
import { dynamicCompression } from "./compression-settings";
import type { DatabaseGate } from "./db-availability";
import type { createDrain } from "./drain";
import { healthz } from "./healthz";
import { precompressed } from "./precompressed";
import { remixRequestHandler } from "./remix-handler";
import {
  dropUntrustedForwardedHost,
  type MalformedReport,
  rejectCrossOrigin,
  rejectInvalidHost,
  rejectLegacyDataRequests,
  screenRequestTarget,
} from "./request-guards";
import { requestLog } from "./request-log";
import { originOf, s3UploadOrigins, securityHeaders } from "./security-headers";

/** What the host's app stands on, made once per process by `server/index.ts` (or by a test). */
export type HostContext = {
  config: Config;
  logger: Logger;
  errors: ErrorReporter;
  drain: ReturnType<typeof createDrain>;
  databaseGate: DatabaseGate;
  /** MongoDB answers a ping in time (/readyz). */
  databaseReady: () => Promise<boolean>;
};

/**
 * Where the Remix build comes from: Vite in development, else the production build's directory (`build/`, holding
 * `client/` and `server/`). `loadServerBuild` replaces the import of `build/server/index.js` (a test loads it through
 * its own module graph).
 */
export type BuildSource = { vite: ViteDevServer } | { buildDir: string; loadServerBuild?: () => Promise<ServerBuild> };

/** Every file below `dir` but its assets/ folder (served on its own), as absolute paths. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !path.relative(dir, file).startsWith(`assets${path.sep}`));
}

/**
 * The host's Express app: request log, drain, health endpoints, security headers, the guards, compression, static
 * files, body limits, the database gate and the Remix handler. `server/index.ts` serves it on a socket; the unit tier
 * drives the same app in-process (test/access-matrix.test.ts).
 */
export async function createHostApp(host: HostContext, source: BuildSource): Promise<Express> {
  const { config, logger, errors, drain, databaseGate, databaseReady } = host;
  const vite = "vite" in source ? source.vite : undefined;
  const isDev = config.env === "development";
  const app = express();
  app.disable("x-powered-by");
  // Remix reads the query from the request's URL, and so do the host's guards and body limit (remixSearchParams):
  // Express's own parse stops at 1,000 keys. It need not be qs's nested one either, a tenth of a millisecond per
  // request with a query string.
  app.set("query parser", "simple");
  // Client IP and protocol come from X-Forwarded-*, believed only for the configured number of proxy hops
  // (TRUST_PROXY, default 1: the load balancer). `true` would take the left-most entry, which the client writes.
  app.set("trust proxy", config.trustProxyHops);

  app.use(requestLog(logger));
  app.use(drain.middleware);

  app.get("/healthz", healthz);
  app.get("/readyz", async (_req, res) => {
    if (drain.draining) {
      res.status(503).json({ status: "shutting down" });
      return;
    }
    const ready = await databaseReady();
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "database unavailable" });
  });

  app.use(
    securityHeaders({
      awsRegion: config.awsRegion,
      dev: isDev,
      formActionOrigins: [...originOf(config.identity.cognito.domain), ...originOf(config.sso.saml.idpEntryPoint)],
      storageOrigins:
        config.storage.kind === "s3" ? s3UploadOrigins(config.storage.bucket, config.awsRegion, config.storage.s3) : [],
    }),
  );
  // A malformed target or Host is a 400 with a short page, logged once at warn (no stack): never a 500 or a 404.
  const malformed: MalformedReport = (reason, req, status) =>
    errors.report(
      reason,
      { status, method: req.method, host: String(req.headers.host ?? "").slice(0, 100) },
      "malformed request",
      "warn",
    );
  app.use(dropUntrustedForwardedHost);
  app.use(rejectInvalidHost(malformed));
  app.use(rejectLegacyDataRequests);
  // Pages and data are compressed per response, cheaply and with a bounded Brotli window, in one call when they end
  // within the window (server/compression-settings.ts; Brotli's defaults cost many times the CPU on dynamic HTML, and
  // full heap collections under load). Static assets were compressed at build time (precompressed below).
  app.use(dynamicCompression());
  // A non-GET request from another origin gets 403 before any route runs (CSRF), except the SAML consumer.
  app.use(rejectCrossOrigin({ allowedOrigins: config.allowedOrigins, ssoMode: config.sso.mode }));

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (vite) {
    app.use(vite.middlewares);
    build = async () => databaseGate.wrapBuild((await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild);
  } else {
    const { buildDir } = source as Exclude<BuildSource, { vite: ViteDevServer }>;
    app.use("/assets", precompressed(path.join(buildDir, "client", "assets"), "public, max-age=31536000, immutable"));
    app.use(
      "/assets",
      express.static(path.join(buildDir, "client", "assets"), {
        immutable: true,
        maxAge: "1y",
        fallthrough: false,
        index: false,
      }),
    );
    // The few public files beside the assets (favicons): looked up by name, so a page's path costs no disk stat.
    const publicDir = path.join(buildDir, "client");
    const publicFiles = new Set(
      listFiles(publicDir).map((file) => `/${path.relative(publicDir, file).split(path.sep).join("/")}`),
    );
    const servePublic = express.static(publicDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));
    const load =
      (source as { loadServerBuild?: () => Promise<ServerBuild> }).loadServerBuild ??
      (async () => (await import(/* @vite-ignore */ path.join(buildDir, "server", "index.js"))) as ServerBuild);
    build = databaseGate.wrapBuild(await load());
  }

  // Request bodies: 413 past REQUEST_BODY_MAX_BYTES, counted as they arrive; file routes keep their own (server/body-limit.ts).
  const bodyTooLarge = (req: express.Request, limit: number) =>
    errors.report(
      "request body over the limit",
      { status: 413, method: req.method, limit },
      "request body too large",
      "warn",
    );
  app.use(
    limitRequestBodies({
      maxBytes: config.requestBodyMaxBytes,
      limitFor: limitFromBuild(build, config.requestBodyMaxBytes),
      report: bodyTooLarge,
    }),
  );
  // While MongoDB is unreachable, pages and data answer 503 at once (static files above still load).
  app.use(databaseGate.middleware);
  app.all("*", remixRequestHandler(build, isDev ? "development" : "production"));
  // Anything a middleware throws: a 4xx it carries as such, the rest one logged 500 page (never Express's stack page).
  app.use(hostErrorHandler(errors));
  return app;
}

/**
 * The listener the HTTP server calls: the request target is screened before Express, which answers 404 to one it
 * cannot parse (server/request-guards.ts).
 */
export function hostRequestListener(
  app: Express,
  errors: ErrorReporter,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const report = (reason: string, status: number) =>
      errors.report(reason, { status, method: req.method }, "malformed request", "warn");
    if (!screenRequestTarget(req, res, report)) app(req, res);
  };
}
