/**
 * The embedded MongoDB-compatible server: speaks the wire protocol on
 * 127.0.0.1 so the official driver, mongosh and Compass can use it, keeps the
 * data in memory and, with a dbPath, in a durable journal. For demos,
 * development and tests only; production uses a real MongoDB (MONGODB_URI).
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { CommandRunner } from "./commands";
import { MongoCommandError, toCommandError } from "./errors";
import type { JournalIo } from "./journal/io";
import { DurabilityError, Journal } from "./journal/journal";
import { MAX_MESSAGE_SIZE } from "./limits";
import type { ServerInfo } from "./replies";
import { Catalog } from "./storage/catalog";
import { expireDocuments } from "./storage/ttl";
import { type EncodedReply, encodeReply, OP_QUERY, parseMessage } from "./wire";

/** Write commands that can yield between documents (multi-document updates and deletes). */
const YIELDING_WRITES = new Set(["update", "delete"]);

export type EmbeddedMongoOptions = {
  /** Directory for the journal and snapshot; omitted = in memory only. */
  dbPath?: string;
  /** TCP port on 127.0.0.1; 0 or omitted = a free port. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Connections served at once (default 1000); further ones are closed as they arrive. */
  maxConnections?: number;
  /** How often TTL indexes are applied (default 60 s, as mongod). */
  ttlIntervalMs?: number;
  /** The journal's disk operations (tests simulate a full disk). */
  io?: JournalIo;
};

export type EmbeddedMongo = {
  uri: string;
  port: number;
  maxConnections: number;
  /** Settles once every collection of the data directory is in memory (at once without one). */
  loaded: Promise<void>;
  stop(): Promise<void>;
};

/** Refuses production unless explicitly allowed; warns when allowed. */
export function assertEmbeddedAllowed(env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_ENV !== "production") return;
  if (env.ALLOW_EMBEDDED_DB !== "1") {
    throw new Error(
      "The embedded MongoDB server refuses to run with NODE_ENV=production: set MONGODB_URI to a real MongoDB, or ALLOW_EMBEDDED_DB=1 for a demo.",
    );
  }
  console.warn(
    "WARNING: the embedded MongoDB server is running with NODE_ENV=production (ALLOW_EMBEDDED_DB=1). It is meant for demos, not for production data.",
  );
}

/** Connections served at once unless told otherwise: far above what the portal's pools open, a bound all the same. */
export const DEFAULT_MAX_CONNECTIONS = 1000;

export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  assertEmbeddedAllowed();
  const host = options.host ?? "127.0.0.1";
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  if (!Number.isInteger(maxConnections) || maxConnections < 1) {
    throw new Error(`maxConnections must be a whole number of at least 1, got ${maxConnections}`);
  }
  const catalog = new Catalog();
  const journal = options.dbPath ? await Journal.open(options.dbPath, catalog, options.io) : undefined;
  const runner = new CommandRunner(catalog);
  const sockets = new Set<net.Socket>();
  const startedAt = new Date();
  let connectionCounter = 0;
  let port = options.port ?? 0;

  const ttlTimer = setInterval(() => {
    try {
      if (expireDocuments(catalog) > 0) journal?.sync().catch(() => undefined);
    } catch (error) {
      console.warn(`embedded-mongo: TTL deletion failed: ${(error as Error).message}`);
    }
  }, options.ttlIntervalMs ?? 60_000);
  ttlTimer.unref();

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const info: ServerInfo = { connectionId: ++connectionCounter, startedAt, port };
    let buffered: Buffer[] = [];
    let bufferedBytes = 0;
    let queue: Promise<void> = Promise.resolve();
    // Messages read but not answered yet: past one message's worth, reading pauses until they are handled.
    let queuedBytes = 0;

    socket.on("data", (chunk: Buffer) => {
      buffered.push(chunk);
      bufferedBytes += chunk.length;
      // Only join chunks once a whole message is there (joining on every chunk is quadratic).
      while (bufferedBytes >= 4) {
        if (buffered[0].length < 4) buffered = [Buffer.concat(buffered)];
        const length = buffered[0].readInt32LE(0);
        // As mongod: a message longer than maxMessageSizeBytes (what hello announces) closes the connection, so
        // no connection buffers more than one such message.
        if (length < 16 || length > MAX_MESSAGE_SIZE) {
          socket.destroy();
          return;
        }
        if (bufferedBytes < length) break;
        const all = buffered.length === 1 ? buffered[0] : Buffer.concat(buffered, bufferedBytes);
        const message = all.subarray(0, length);
        const remainder = all.subarray(length);
        buffered = remainder.length ? [remainder] : [];
        bufferedBytes = remainder.length;
        queuedBytes += length;
        if (queuedBytes > MAX_MESSAGE_SIZE) socket.pause();
        queue = queue
          .then(() => handle(socket, message, info))
          .catch(() => {
            socket.destroy();
          })
          .finally(() => {
            queuedBytes -= length;
            if (queuedBytes <= MAX_MESSAGE_SIZE && socket.isPaused() && !socket.destroyed) socket.resume();
          });
      }
    });
    socket.on("error", () => socket.destroy());
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(socket: net.Socket, message: Buffer, info: ServerInfo): Promise<void> {
    let requestId = message.readInt32LE(4);
    let isLegacy = message.readInt32LE(12) === OP_QUERY;
    let reply: Record<string, unknown>;
    let moreToCome = false;
    try {
      const request = parseMessage(message);
      requestId = request.requestId;
      isLegacy = request.opCode === OP_QUERY;
      moreToCome = request.moreToCome;
      if (!("$db" in request.command)) request.command.$db = request.db;
      const failuresBefore = journal?.failures;
      reply = await runner.run(request.command, info);
      if (journal) {
        try {
          await journal.sync();
          // A write that yielded may have had its first changes in a batch the disk refused (and that was undone).
          if (
            journal.failures !== failuresBefore &&
            YIELDING_WRITES.has(Object.keys(request.command)[0] ?? "") &&
            journal.lastFailure
          )
            throw journal.lastFailure;
        } catch (error) {
          const full = error instanceof DurabilityError && error.cause.code === "ENOSPC";
          reply = new MongoCommandError(full ? "OutOfDiskSpace" : "InternalError", (error as Error).message).toReply();
        }
      }
    } catch (error) {
      reply = toCommandError(error).toReply();
    }
    if (moreToCome || socket.destroyed) return;
    let encoded: EncodedReply;
    try {
      encoded = encodeReply(isLegacy, requestId, reply);
    } catch (error) {
      // e.g. a reply over the BSON size limit
      encoded = encodeReply(
        isLegacy,
        requestId,
        new MongoCommandError("BadValue", `could not encode the reply: ${(error as Error).message}`).toReply(),
      );
    }
    socket.write(encoded.bytes, () => encoded.release());
  }

  // Node closes each connection past the limit as it arrives.
  server.maxConnections = maxConnections;

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    // e.g. EADDRINUSE: release the data directory before giving up.
    clearInterval(ttlTimer);
    runner.close();
    await journal?.close();
    throw error;
  }
  port = (server.address() as net.AddressInfo).port;
  const uri = `mongodb://${host}:${port}/?directConnection=true`;
  // Other processes of the portal find the server of a data directory here (process.ts).
  const uriFile = options.dbPath ? path.join(options.dbPath, "embedded-mongo.uri") : undefined;
  if (uriFile) fs.writeFileSync(uriFile, `${uri}\n`);

  let stopped: Promise<void> | undefined;
  return {
    uri,
    port,
    maxConnections,
    loaded: journal?.loaded ?? Promise.resolve(),
    stop() {
      stopped ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const s of sockets) s.destroy();
        });
        clearInterval(ttlTimer);
        runner.close();
        if (uriFile) fs.rmSync(uriFile, { force: true });
        await journal?.close();
      })();
      return stopped;
    },
  };
}

/** Tests: holds back the pass that decodes what a start left cold (cold.ts), to read a store that is still cold. */
export { holdWarmUp } from "./cold";
