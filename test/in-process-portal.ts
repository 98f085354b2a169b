import crypto from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { type EmbeddedMongo, startEmbeddedMongo } from "embedded-mongo";
import { inject } from "light-my-request";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { closeDb, getDb } from "~/db.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { seedDatabase } from "~/seed/index.server";
import { createErrorReporter } from "~/shared/error-log.server";
import { createLogger } from "~/shared/logger.server";
import { createHostApp, hostRequestListener } from "../server/app";
import { createDatabaseGate } from "../server/db-availability";
import { createDrain } from "../server/drain";
import { installRouteMatchingMemory } from "../server/route-matching";
import type { Reply, Send } from "./access-matrix/matrix";

/**
 * The portal as production runs it, without a socket: the host's Express app (server/app.ts) on the production build
 * (build/server, `npm run build`), on an in-memory embedded database seeded as the browser tests seed theirs.
 * Requests are handed to the app's listener with the exact bytes of their target, as Node's HTTP parser would hand
 * them over (`/./x` and `//x` stay as sent). One seeded database serves every configuration of a file;
 * `configure(env)` loads the build again under new settings (the build reads its configuration once).
 */

const BUILD_SERVER = path.resolve("build/server/index.js");
/** The e2e seed's scale (test/e2e/harness.ts): a few pages of every screen. */
const SEED_SCALE = 0.01;
const ORIGIN = "http://portal.test";

export type InProcessPortal = {
  db: Db;
  sessionSecret: string;
  origin: string;
  manifest: ServerBuild;
  send: Send;
  /** Lines the portal logged at level error since the last `configure`. */
  errorLines: () => string[];
  /** Rebuilds the app on a fresh load of the build with these settings on top of the defaults. */
  configure: (env?: Record<string, string>) => Promise<void>;
  stop: () => Promise<void>;
};

export async function startInProcessPortal(): Promise<InProcessPortal> {
  // As the host's entry point does (server/index.ts): Remix's route matching remembers its answers.
  installRouteMatchingMemory();
  const mongo: EmbeddedMongo = await startEmbeddedMongo();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-in-process-"));
  const databaseName = `matrix_${crypto.randomBytes(4).toString("hex")}`;
  const sessionSecret = crypto.randomBytes(32).toString("hex");
  const client = await new MongoClient(mongo.uri).connect();
  const db = client.db(databaseName);
  await applyIndexes(db);
  await seedDatabase(db, { scale: SEED_SCALE, dataDir });

  const baseEnv: Record<string, string> = {
    NODE_ENV: "production",
    ALLOW_EMBEDDED_DB: "1",
    MONGODB_URI: mongo.uri,
    DATABASE_NAME: databaseName,
    SESSION_SECRET: sessionSecret,
    APP_ORIGIN: ORIGIN,
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
  };
  const saved = new Map(Object.keys(baseEnv).map((key) => [key, process.env[key]]));
  let flagKeys: string[] = [];
  let listener: ReturnType<typeof hostRequestListener> | undefined;
  let manifest: ServerBuild | undefined;
  let errors: string[] = [];
  const stderrWrite = process.stderr.write.bind(process.stderr);
  // The portal logs errors as JSON lines on stderr; they are collected (a probe answered 500 shows there too).
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.includes('"level":"error"')) errors.push(text);
    return (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;

  const configure = async (env: Record<string, string> = {}) => {
    for (const key of flagKeys) delete process.env[key];
    flagKeys = Object.keys(env);
    Object.assign(process.env, baseEnv, env);
    resetConfigForTests();
    await closeDb();
    // A fresh copy of the build's modules: its configuration is read once per load.
    vi.resetModules();
    const loaded = (await import(/* @vite-ignore */ pathToFileURL(BUILD_SERVER).href)) as ServerBuild;
    const { getConfig } = await import("~/config.server");
    const config = getConfig();
    const logger = createLogger("error");
    const reporter = createErrorReporter(logger);
    const databaseReady = async () => (await (await getDb()).command({ ping: 1 })).ok === 1;
    const app = await createHostApp(
      {
        config,
        logger,
        errors: reporter,
        drain: createDrain(),
        databaseGate: createDatabaseGate({ ping: databaseReady, logger }),
        databaseReady,
      },
      { buildDir: path.resolve("build"), loadServerBuild: async () => loaded },
    );
    listener = hostRequestListener(app, reporter);
    manifest = loaded;
    errors = [];
  };

  const send: Send = async (target, method, cookie, body, extraHeaders = {}) => {
    if (!listener) throw new Error("startInProcessPortal: configure() first");
    const handle = listener;
    const headers: Record<string, string> = { host: new URL(ORIGIN).host };
    if (cookie) headers.cookie = cookie;
    if (method === "POST") {
      headers.origin = ORIGIN;
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    Object.assign(headers, extraHeaders);
    const reply = await inject(
      (req, res) => {
        // As Node's HTTP parser hands a request over: the raw target (not the URL the injector normalised), and the
        // body pushed as it arrives, whether or not anyone reads it yet (the host's body limit counts it so).
        req.url = target;
        req._read = () => undefined;
        if (body) req.push(Buffer.from(body));
        req.push(null);
        req.complete = true;
        // Express swaps the response's prototype for its own: the injector's methods are kept on the object.
        const injected = Object.getPrototypeOf(res);
        for (const name of ["write", "end", "writeHead", "destroy", "addTrailers", "setTimeout"] as const)
          Object.defineProperty(res, name, { value: injected[name], writable: true, configurable: true });
        handle(req, res);
      },
      { method, url: target.startsWith("/") ? target : `/${target}`, headers, payload: body },
    );
    const setCookie = reply.headers["set-cookie"];
    const result: Reply = {
      status: reply.statusCode,
      location: (reply.headers.location as string | undefined) ?? null,
      body: reply.body.slice(0, 4096),
      setCookie: Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [],
      contentType: String(reply.headers["content-type"] ?? ""),
    };
    return result;
  };

  await configure();
  return {
    db,
    sessionSecret,
    origin: ORIGIN,
    get manifest() {
      if (!manifest) throw new Error("startInProcessPortal: not configured");
      return manifest;
    },
    send,
    errorLines: () => [...errors],
    configure,
    stop: async () => {
      process.stderr.write = stderrWrite;
      await closeDb();
      await client.close();
      await mongo.stop();
      for (const key of flagKeys) delete process.env[key];
      for (const [key, value] of saved) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      resetConfigForTests();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The in-process portal for a test file: started before its tests (the production build must exist), stopped after.
 * `current()` is the running portal.
 */
export function useInProcessPortal(): { current: () => InProcessPortal } {
  let portal: InProcessPortal | undefined;
  beforeAll(async () => {
    if (!existsSync(BUILD_SERVER))
      throw new Error("build/server/index.js is missing: run `npm run build` first (`npm run test:unit` does).");
    portal = await startInProcessPortal();
  }, 180_000);
  afterAll(async () => {
    await portal?.stop();
  });
  return {
    current: () => {
      if (!portal) throw new Error("useInProcessPortal: the portal has not started");
      return portal;
    },
  };
}
