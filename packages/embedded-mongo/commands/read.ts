/** Read commands: find, getMore, killCursors, count, distinct, aggregate and explain. */
import { Long } from "bson";
import { batchSizeOf, collectionName, cursorIdString, numberArg } from "../args";
import { MongoCommandError } from "../errors";
import { DEFAULT_BATCH } from "../limits";
import { takeBatch } from "../replies";
import type { CommandHandler } from "../runner";
import { type Doc, isPlainObject } from "../values";

export const readCommands: Record<string, CommandHandler> = {
  explain(cmd, db) {
    return this.explain(cmd, db);
  },
  async find(cmd, db) {
    const name = collectionName(cmd);
    const ns = `${db}.${name}`;
    let limit = numberArg(cmd.limit, "limit");
    let singleBatch = cmd.singleBatch === true;
    if (limit < 0) {
      limit = -limit;
      singleBatch = true;
    }
    const out = await this.readFind(cmd, db);
    this.profileRead(db, "query", ns, cmd, out);
    return this.cursorReply(ns, out.docs as Doc[], numberArg(cmd.batchSize, "batchSize") || DEFAULT_BATCH, singleBatch);
  },
  getMore(cmd) {
    const id = cursorIdString(cmd.getMore);
    const cursor = this.cursors.get(id);
    if (!cursor) throw new MongoCommandError("CursorNotFound", `cursor id ${id} not found`);
    const size = numberArg(cmd.batchSize, "batchSize") || Infinity;
    const batch = takeBatch(cursor.docs, cursor.pos, size);
    cursor.pos += batch.length;
    cursor.touched = Date.now();
    const done = cursor.pos >= cursor.docs.length;
    if (done) this.cursors.delete(id);
    return { cursor: { nextBatch: batch, id: done ? Long.ZERO : Long.fromString(id), ns: cursor.ns }, ok: 1 };
  },
  killCursors(cmd) {
    const ids = Array.isArray(cmd.cursors) ? cmd.cursors : [];
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const raw of ids) {
      const id = cursorIdString(raw);
      (this.cursors.delete(id) ? killed : notFound).push(Long.fromString(id));
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
  },
  async count(cmd, db) {
    const name = collectionName(cmd);
    const out = await this.readCount(cmd, db);
    this.profileRead(db, "command", `${db}.${name}`, cmd, out);
    return { n: out.nReturned ?? 0, ok: 1 };
  },
  async distinct(cmd, db) {
    const name = collectionName(cmd);
    if (typeof cmd.key !== "string" || cmd.key === "")
      throw new MongoCommandError("BadValue", "distinct needs a string 'key'");
    const out = await this.readDistinct(cmd, db);
    this.profileRead(db, "command", `${db}.${name}`, cmd, out);
    return { values: out.docs, ok: 1 };
  },
  async aggregate(cmd, db) {
    if (cmd.explain === true)
      return this.explain({ explain: { ...cmd, explain: undefined }, verbosity: "queryPlanner" }, db);
    if (!isPlainObject(cmd.cursor)) {
      throw new MongoCommandError(
        "FailedToParse",
        "The 'cursor' option is required, except for aggregate with the explain argument",
      );
    }
    const out = await this.readAggregate(cmd, db, true);
    const ns = cmd.aggregate === 1 ? `${db}.$cmd.aggregate` : `${db}.${collectionName(cmd)}`;
    this.profileRead(db, "command", ns, cmd, out);
    return this.cursorReply(ns, out.docs as Doc[], batchSizeOf(cmd.cursor), false);
  },
};
