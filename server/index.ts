/**
 * The Express host: the same code in development (with Vite as middleware) and in production
 * (bundled by `npm run build` into build/host/index.js, next to the Remix build it serves).
 */
import { existsSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import { type Config, ConfigError, getConfig } from "../app/config.server";
import { closeDb, getDb } from "../app/db.server";
import { backgroundWorkSettled } from "../app/shared/background-work.server";
import { createErrorReporter } from "../app/shared/error-log.server";
import { createLogger, errorFields, type Logger } from "../app/shared/logger.server";
import { createHostApp, hostRequestListener } from "./app";
import { answerClientError } from "./client-errors";
import { type DatabaseHandle, useConfiguredDatabase } from "./database";
import { createDatabaseGate } from "./db-availability";
import { createDrain } from "./drain";
import { createHostServer } from "./http-server";
import { installRouteMatchingMemory } from "./route-matching";
import { checkSharedDataDir } from "./shared-data";
import { startInProcessWorker } from "./worker";

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
  const app = await createHostApp(
    { config, logger, errors, drain, databaseGate, databaseReady },
    // build/host/index.js → build/client and build/server
    vite ? { vite } : { buildDir: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..") },
  );
  // Idle kept-alive connections outlast the load balancer's (HTTP_KEEP_ALIVE_TIMEOUT_MS, server/http-server.ts).
  const server: Server = createHostServer(hostRequestListener(app, errors), config.httpKeepAliveTimeoutMs);
  server.listen(config.port, () => {
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
