/** Replies shared by command handlers: hello, buildInfo, write results, and the batches of a cursor. */
import { BSON } from "bson";
import { MAX_BSON_SIZE, MAX_MESSAGE_SIZE, MAX_WRITE_BATCH } from "./limits";
import type { Doc } from "./values";

export type ServerInfo = { connectionId: number; startedAt: Date; port: number };

export type Cursor = { ns: string; docs: Doc[]; pos: number; touched: number };

export function helloReply(info: ServerInfo, legacy: boolean): Doc {
  const reply: Doc = {
    helloOk: true,
    isWritablePrimary: true,
    maxBsonObjectSize: MAX_BSON_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: MAX_WRITE_BATCH,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: info.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
  if (legacy) reply.ismaster = true;
  return reply;
}

export function buildInfo(): Doc {
  return {
    version: "7.0.0",
    gitVersion: "embedded-mongo",
    versionArray: [7, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_SIZE,
    storageEngines: ["embedded"],
    modules: [],
    javascriptEngine: "none",
    ok: 1,
  };
}

export function writeReply(reply: Doc, writeErrors: Doc[]): Doc {
  if (writeErrors.length) reply.writeErrors = writeErrors;
  reply.ok = 1;
  return reply;
}

/** Up to `size` documents from `pos`, never more than 16 MB of BSON (but always one). */
export function takeBatch(docs: Doc[], pos: number, size: number): Doc[] {
  const out: Doc[] = [];
  let bytes = 0;
  for (let i = pos; i < docs.length && out.length < size; i++) {
    bytes += BSON.calculateObjectSize(docs[i]);
    if (bytes > MAX_BSON_SIZE - 64 * 1024 && out.length > 0) break;
    out.push(docs[i]);
  }
  return out;
}
