/** Commands about the server and the connection: hello, buildInfo, parameters, the profiler, serverStatus. */
import { Long } from "bson";
import { coldState } from "../cold";
import { MongoCommandError } from "../errors";
import { buildInfo, helloReply } from "../replies";
import type { CommandHandler } from "../runner";
import type { ServerParams } from "../stages/stage";
import { type Doc, isPlainObject } from "../values";

export const serverCommands: Record<string, CommandHandler> = {
  hello: (_cmd, _db, info) => helloReply(info, false),
  isMaster: (_cmd, _db, info) => helloReply(info, true),
  ping: () => ({ ok: 1 }),
  buildInfo: () => buildInfo(),
  endSessions: () => ({ ok: 1 }),
  whatsmyuri: () => ({ you: "127.0.0.1:0", ok: 1 }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  getCmdLineOpts: () => ({ argv: ["embedded-mongo"], parsed: {}, ok: 1 }),
  getLog: (cmd) =>
    cmd.getLog === "*" ? { names: ["startupWarnings"], ok: 1 } : { totalLinesWritten: 0, log: [], ok: 1 },
  hostInfo: () => ({
    system: { hostname: "127.0.0.1", currentTime: new Date() },
    os: { type: process.platform },
    extra: {},
    ok: 1,
  }),
  getParameter(cmd) {
    const out: Doc = {};
    const all =
      cmd.getParameter === "*" || (isPlainObject(cmd.getParameter) && cmd.getParameter.allParameters === true);
    if (all || cmd.featureCompatibilityVersion !== undefined) out.featureCompatibilityVersion = { version: "7.0" };
    for (const name of Object.keys(this.params) as (keyof ServerParams)[]) {
      if (all || cmd[name] !== undefined) out[name] = this.params[name];
    }
    return { ...out, ok: 1 };
  },
  setParameter(cmd, db) {
    if (db !== "admin")
      throw new MongoCommandError("Unauthorized", "setParameter may only be run against the admin database.");
    const was: Doc = {};
    for (const [name, value] of Object.entries(cmd)) {
      if (name === "setParameter" || name.startsWith("$") || name === "lsid" || name === "comment") continue;
      if (name === "notablescan") {
        if (typeof value !== "boolean" && typeof value !== "number")
          throw new MongoCommandError("BadValue", "notablescan must be a boolean");
        was.was = this.params.notablescan;
        this.params.notablescan = Boolean(value);
      } else if (name === "notablescanMinDocuments") {
        if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
          throw new MongoCommandError("BadValue", "notablescanMinDocuments must be a non-negative integer");
        }
        was.was = this.params.notablescanMinDocuments;
        this.params.notablescanMinDocuments = value;
      } else {
        throw new MongoCommandError(
          "InvalidOptions",
          `attempted to set unrecognized parameter [${name}], use help:true to see options `,
        );
      }
    }
    return { ...was, ok: 1 };
  },
  profile(cmd, db) {
    const state = this.profileState(db);
    const was = state.level;
    const level = Number(cmd.profile);
    if (![-1, 0, 1, 2].includes(level)) throw new MongoCommandError("BadValue", "profile level must be -1, 0, 1 or 2");
    if (level >= 0) state.level = level;
    if (typeof cmd.slowms === "number") state.slowms = cmd.slowms;
    return { was, slowms: state.slowms, sampleRate: 1, ok: 1 };
  },
  serverStatus(_cmd, _db, info) {
    return {
      host: "127.0.0.1",
      version: "7.0.0",
      process: "embedded-mongo",
      pid: Long.fromNumber(process.pid),
      uptime: (Date.now() - info.startedAt.getTime()) / 1000,
      localTime: new Date(),
      // mongod's section names; `embedded` is this server's own: `loading` is true while a data directory still loads,
      // `indexBuilds` counts the indexes that load built from the snapshot's recorded order and those it sorted; of the
      // first, `uncompared` were recorded sorted and taken without comparing their entries; `cold` counts the stored
      // documents a start has not decoded yet (cold.ts; 0 once the background pass after the load is done).
      mem: { bits: 64, resident: Math.round(process.memoryUsage.rss() / 1048576) },
      embedded: { loading: this.catalog.loading, indexBuilds: { ...this.catalog.indexBuilds }, cold: coldState.count },
      ok: 1,
    };
  },
  commitTransaction: () => {
    throw new MongoCommandError(
      "IllegalOperation",
      "Transactions are not supported by the embedded server (standalone)",
    );
  },
  abortTransaction: () => {
    throw new MongoCommandError(
      "IllegalOperation",
      "Transactions are not supported by the embedded server (standalone)",
    );
  },
};
