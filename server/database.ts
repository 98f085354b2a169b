/**
 * The database a process of the portal talks to: MONGODB_URI when it is set; otherwise the embedded server
 * (packages/embedded-mongo) on DATA_DIR/db, started as a child process or joined when another process of the
 * portal already runs it there. Every entry point that may run without MONGODB_URI (the host, the CLI and so the
 * seed and index commands) calls this before the app reads its configuration, and the app only ever sees a
 * MongoDB URI (app/db.server.ts). The worker process requires MONGODB_URI (server/worker.ts).
 */
import path from "node:path";
import { startEmbeddedDbProcess } from "embedded-mongo/process";

export type DatabaseHandle = {
  uri: string;
  /** Whether this is the embedded server (started or joined by this call). */
  embedded: boolean;
  /** Stops the embedded server when this process started it; nothing otherwise. Call after closeDb(). */
  stop(): Promise<void>;
};

export const EMBEDDED_IN_PRODUCTION_REFUSED =
  "MONGODB_URI is not set. The embedded database is not for production; set ALLOW_EMBEDDED_DB=1 only for a demo.";

export async function useConfiguredDatabase(env: NodeJS.ProcessEnv = process.env): Promise<DatabaseHandle> {
  if (env.MONGODB_URI) return { uri: env.MONGODB_URI, embedded: false, stop: async () => {} };
  if (env.NODE_ENV === "production" && env.ALLOW_EMBEDDED_DB !== "1") throw new Error(EMBEDDED_IN_PRODUCTION_REFUSED);
  const embedded = await startEmbeddedDbProcess(path.resolve(env.DATA_DIR || "./data", "db"));
  env.MONGODB_URI = embedded.uri;
  return { uri: embedded.uri, embedded: true, stop: async () => await embedded.stop?.() };
}
