/**
 * The Express host: the same code in development (with Vite as middleware) and in production
 * (bundled by `npm run build` into build/host/index.js, next to the Remix build it serves).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { fileURLToPath } from "node:url";
import { createServer, type Server } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import type { ViteDevServer } from "vite";
import { ConfigError, getConfig, type Config } from "../app/config.server";
import { closeDb, getDb } from "../app/db.server";
import { useConfiguredDatabase, type DatabaseHandle } from "./database";
import { backgroundWorkSettled } from "../app/shared/background-work.server";
import { createLogger, errorFields, type Logger } from "../app/shared/logger.server";
import { createDrain } from "./drain";
import { healthz } from "./healthz";
import { requestLog } from "./request-log";
import {
  dropUntrustedForwardedHost,
  screenRequestTarget,
  rejectCrossOrigin,
  rejectInvalidHost,
  rejectLegacyDataRequests,
  type MalformedReport,
} from "./request-guards";
import { startInProcessWorker } from "./worker";
import { originOf, s3UploadOrigins, securityHeaders } from "./security-headers";
import { createDatabaseGate } from "./db-availability";
import { createErrorReporter } from "../app/shared/error-log.server";
import { answerClientError, hostErrorHandler } from "./client-errors";
import { checkSharedDataDir } from "./shared-data";
import { precompressed } from "./precompressed";
import { dynamicCompression } from "./compression-settings";
import { installRouteMatchingMemory } from "./route-matching";
import { limitFromBuild, limitRequestBodies } from "./body-limit";
import { remixRequestHandler } from "./remix-handler";

// Development reads ./.env when present; variables already set in the environment win.
// Production and the tests take their configuration from the real environment only.
if ((process.env.NODE_ENV ?? "development") === "development" && existsSync(".env")) {
  for (const [key, value] of Object.entries(parseEnv(readFileSync(".env", "utf8")))) process.env[key] ??= value;
}

// Remix matches the same route table on every request, several times per document (server/route-matching.ts).
installRouteMatchingMemory();

const READY_TIMEOUT_MS = 2_000;
/** In-flight requests get this long to finish after SIGTERM; then connections are cut. */
const SHUTDOWN_GRACE_MS = 20_000;

let config: Config;
let database: DatabaseHandle;
try {
  // Before the configuration is read: without MONGODB_URI this starts (or joins) the embedded database and sets it.
  database = await useConfiguredDatabase();
  config = getConfig();
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const logger: Logger = createLogger(config.logLevel);
const isDev = config.env === "development";
const drain = createDrain();
const errors = createErrorReporter(logger);
const databaseGate = createDatabaseGate({ ping: () => databaseReady(), logger });

/** MongoDB answers a ping within the timeout. Starts the connection when none exists yet. */
async function databaseReady(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  const ping = getDb()
    .then((db) => db.command({ ping: 1 }))
    .then((reply) => reply.ok === 1)
    .catch((error: unknown) => {
      logger.warn("readiness check failed", errorFields(error));
      return false;
    });
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every file below `dir` but its assets/ folder (served on its own), as absolute paths. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !path.relative(dir, file).startsWith(`assets${path.sep}`));
}

async function createApp(vite: ViteDevServer | undefined) {
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
  // Pages and data are compressed per response, cheaply and with a bounded Brotli window (server/compression-settings.ts;
  // Brotli's defaults cost ~20x the CPU on dynamic HTML and full heap collections under load). Static assets were
  // compressed at build time (precompressed below).
  app.use(dynamicCompression());
  // A non-GET request from another origin gets 403 before any route runs (CSRF), except the SAML consumer.
  app.use(rejectCrossOrigin({ allowedOrigins: config.allowedOrigins, ssoMode: config.sso.mode }));

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (vite) {
    app.use(vite.middlewares);
    build = async () => databaseGate.wrapBuild((await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild);
  } else {
    // build/host/index.js → build/client and build/server
    const buildDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
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
    build = databaseGate.wrapBuild(
      (await import(/* @vite-ignore */ path.join(buildDir, "server", "index.js"))) as ServerBuild,
    );
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

async function main() {
  const vite = isDev
    ? await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }))
    : undefined;
  if (vite) {
    // The Remix plugin's internal Vite compiler exits the process on SIGTERM (and when stdin ends);
    // the host must drain and close the database first, so those listeners go.
    process.removeAllListeners("SIGTERM");
    process.stdin.removeAllListeners("end");
  }
  // Several instances with local storage: DATA_DIR must really be the same directory for all (else refuse to start).
  const sharedData =
    config.instances.multi && config.storage.kind === "local"
      ? await checkSharedDataDir(path.resolve(config.dataDir, "uploads"), logger)
      : undefined;
  const app = await createApp(vite);

  // The request target is screened before Express, which answers 404 to one it cannot parse (server/request-guards.ts).
  const server: Server = createServer((req, res) => {
    const report = (reason: string, status: number) =>
      errors.report(reason, { status, method: req.method }, "malformed request", "warn");
    if (!screenRequestTarget(req, res, report)) app(req, res);
  }).listen(config.port, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    logger.info("listening", { port, url: `http://localhost:${port}`, env: config.env, embeddedDb: database.embedded });
  });
  // The file-processing worker runs in the web process unless WORKER_IN_PROCESS=0 (then `npm run worker`).
  const worker = config.workerInProcess ? startInProcessWorker() : undefined;
  server.on("error", (error) => {
    logger.error("server error", errorFields(error));
    process.exit(1);
  });
  // Requests Node cannot parse (malformed request line, oversize headers…): 400/431 with a short page, logged once.
  server.on("clientError", (error, socket) => answerClientError(error as NodeJS.ErrnoException, socket, errors));

  const shutdown = async (signal: string) => {
    if (drain.draining) return;
    logger.info("shutdown started", { signal });
    const force = setTimeout(() => {
      logger.warn("grace period over, closing open connections");
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    let exitCode = 0;
    try {
      // Stops accepting and resolves once every request in flight has ended its response (even one whose client left)
      // and the connections are closed, or at the grace deadline: the database closes below only after that.
      await drain.drain(server, SHUTDOWN_GRACE_MS);
      await vite?.close();
      // Within one more grace period, the worker finishes the file in hand if it can (otherwise its lease simply
      // expires and another worker takes the file over), and work the requests left running (dashboard figures
      // recomputed behind a view) ends before the database closes.
      const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
      await Promise.race([Promise.all([backgroundWorkSettled(), worker?.stop()]), grace]);
      await sharedData?.stop();
      await closeDb();
      await database.stop();
      databaseGate.stop();
      errors.stop();
      logger.info("shutdown complete");
    } catch (error) {
      exitCode = 1;
      logger.error("shutdown failed", errorFields(error));
    }
    clearTimeout(force);
    process.exit(exitCode);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  logger.error("start failed", errorFields(error));
  process.exit(1);
});
