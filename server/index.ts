/**
 * The Express host: the same code in development (with Vite as middleware) and in production
 * (bundled by `npm run build` into build/host/index.js, next to the Remix build it serves).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { fileURLToPath } from "node:url";
import type { Server } from "node:http";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import type { ViteDevServer } from "vite";
import { ConfigError, getConfig, type Config } from "../app/config.server";
import { closeDb, getDb } from "../app/db.server";
import { isCrossSitePostAllowed, isSameOriginRequest } from "../app/domain/same-origin";
import { messages } from "../app/messages";
import { createLogger, errorFields, type Logger } from "./logger";
import { createDrain } from "./drain";
import { requestLog } from "./request-log";
import { startInProcessWorker } from "./worker";
import { originOf, s3UploadOrigins, securityHeaders } from "./security-headers";

// Development reads ./.env when present; variables already set in the environment win.
// Production and the tests take their configuration from the real environment only.
if ((process.env.NODE_ENV ?? "development") === "development" && existsSync(".env")) {
  for (const [key, value] of Object.entries(parseEnv(readFileSync(".env", "utf8")))) process.env[key] ??= value;
}

const READY_TIMEOUT_MS = 2_000;
/** In-flight requests get this long to finish after SIGTERM; then connections are cut. */
const SHUTDOWN_GRACE_MS = 20_000;

let config: Config;
try {
  config = getConfig();
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
}

const logger: Logger = createLogger(config.logLevel);
const isDev = config.env === "development";
const drain = createDrain();

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

async function createApp(vite: ViteDevServer | undefined) {
  const app = express();
  app.disable("x-powered-by");
  // Client IP and protocol come from X-Forwarded-*, believed only for the configured number of proxy hops
  // (TRUST_PROXY, default 1: the load balancer). `true` would take the left-most entry, which the client writes.
  app.set("trust proxy", config.trustProxyHops);

  app.use(requestLog(logger));
  app.use(drain.middleware);

  app.get("/healthz", (_req, res) => {
    res.status(200).json({ status: "ok" });
  });
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
      connectOrigins: config.storage.kind === "s3" ? s3UploadOrigins(config.storage.bucket, config.awsRegion) : [],
    }),
  );
  app.use(compression());
  // A non-GET request from another origin gets 403 before any route runs (CSRF), except the SAML consumer.
  app.use((req, res, next) => {
    const ok =
      isCrossSitePostAllowed(req.path, config.sso.mode) ||
      isSameOriginRequest({ method: req.method, origin: req.get("origin") ?? null, referer: req.get("referer") ?? null, expected: config.origin });
    if (ok) return next();
    res.status(403).type("text/plain; charset=utf-8").send(messages.forbidden);
  });

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (vite) {
    app.use(vite.middlewares);
    build = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
  } else {
    // build/host/index.js → build/client and build/server
    const buildDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
    app.use(
      "/assets",
      express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y", fallthrough: false, index: false }),
    );
    app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
    build = (await import(/* @vite-ignore */ path.join(buildDir, "server", "index.js"))) as ServerBuild;
  }

  app.all(
    "*",
    createRequestHandler({
      build,
      mode: isDev ? "development" : "production",
      getLoadContext: (req, res) => ({
        cspNonce: String(res.locals.cspNonce ?? ""),
        requestId: String(res.locals.requestId ?? ""),
        // req.ip is the client's address as the trusted proxies saw it (per-IP sign-in limit).
        clientIp: req.ip ?? "",
      }),
    }),
  );
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
  const app = await createApp(vite);

  const server: Server = app.listen(config.port, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    logger.info("listening", { port, url: `http://localhost:${port}`, env: config.env, embeddedDb: !config.mongodbUri });
  });
  // The file-processing worker runs in the web process unless WORKER_IN_PROCESS=0 (then `npm run worker`).
  const worker = config.workerInProcess ? startInProcessWorker() : undefined;
  server.on("error", (error) => {
    logger.error("server error", errorFields(error));
    process.exit(1);
  });

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
      // Stops accepting and resolves once in-flight requests are answered and their connections closed.
      await drain.drain(server);
      await vite?.close();
      // The worker finishes the file in hand if it can within the grace period; otherwise its lease
      // simply expires and another worker takes the file over.
      if (worker) await Promise.race([worker.stop(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
      await closeDb();
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
