/**
 * Runs the embedded MongoDB-compatible server on its own:
 *   npm run db -- --port 27017 --dbpath ./data/db
 * Without --dbpath the data lives in memory and is lost on exit. With --exit-with-parent the server
 * stops when its standard input closes: the process that started it (app/db.server.ts, the demo)
 * holds that pipe, so the server never outlives it, even when it is killed with -9.
 *
 * The server has no authentication: anyone who reaches its port reads and writes every database. So --host names a
 * loopback address (127.0.0.1, localhost, ::1) unless --insecure-no-auth says the exposure is meant (a container
 * network, a demo on a private network), and then a warning says so at every start.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { DEFAULT_MAX_CONNECTIONS, startEmbeddedMongo } from "./index";

/**
 * One full garbage collection, without --expose-gc on the command line. It stops every command for seconds on a
 * large database; a collection that also compacts every page (--compact-on-every-full-gc) saved little RSS but
 * stopped every command several times longer, so it is not used.
 */
function collectOnce(): void {
  v8.setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

function usage(message?: string): never {
  if (message) process.stderr.write(`${message}\n`);
  process.stderr.write(
    "usage: npm run db -- [--port 27017] [--dbpath ./data/db] [--host 127.0.0.1 [--insecure-no-auth]] " +
      "[--max-connections 1000] [--memory] [--exit-with-parent]\n",
  );
  process.exit(message ? 2 : 0);
}

let values: {
  port?: string;
  dbpath?: string;
  host?: string;
  memory?: boolean;
  help?: boolean;
  "exit-with-parent"?: boolean;
  "insecure-no-auth"?: boolean;
  "max-connections"?: string;
};
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string" },
      dbpath: { type: "string" },
      host: { type: "string" },
      memory: { type: "boolean" },
      "exit-with-parent": { type: "boolean" },
      "insecure-no-auth": { type: "boolean" },
      "max-connections": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  }));
} catch (error) {
  usage((error as Error).message);
}
if (values.help) usage();

const port = values.port === undefined ? 27017 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  usage(`--port must be a whole number from 0 to 65535, got '${values.port}'`);
if (values.memory && values.dbpath) usage("use either --dbpath or --memory, not both");
const dbPath = values.memory ? undefined : path.resolve(values.dbpath ?? "./data/db");
const maxConnectionsOption = values["max-connections"];
const maxConnections = maxConnectionsOption === undefined ? DEFAULT_MAX_CONNECTIONS : Number(maxConnectionsOption);
if (!Number.isInteger(maxConnections) || maxConnections < 1) {
  usage(`--max-connections must be a whole number of at least 1, got '${values["max-connections"]}'`);
}

/** Addresses only this machine reaches. */
function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h === "::1" || /^127(?:\.\d{1,3}){3}$/.test(h);
}
if (values.host !== undefined && !isLoopback(values.host)) {
  if (!values["insecure-no-auth"]) {
    usage(
      `--host ${values.host} would expose the database to the network, and this server has no authentication ` +
        "(anyone who reaches the port reads and writes every database). Use a loopback host, a real MongoDB with " +
        "authentication, or add --insecure-no-auth if that exposure is intended (e.g. a private container network).",
    );
  }
  process.stderr.write(
    `WARNING: listening on ${values.host} with no authentication: ` +
      `anyone who reaches port ${port} can read and write every database.\n`,
  );
}

try {
  const server = await startEmbeddedMongo({ port, dbPath, host: values.host, maxConnections });
  process.stdout.write(`embedded MongoDB-compatible server listening\n`);
  process.stdout.write(`  data: ${dbPath ?? "in memory (lost on exit)"}\n`);
  process.stdout.write(`  connection string: ${server.uri}\n`);
  // The load leaves garbage behind (decoding buffers, the index entries before they went into their leaves), and
  // the server's collector settings (process.ts, DB_GC_FLAGS) start no collection while it sits idle: one full
  // collection once the data is in, so an idle server does not keep it.
  void server.loaded.then(collectOnce, () => undefined);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping\n`);
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`could not stop cleanly: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  if (values["exit-with-parent"]) {
    // With the parent gone its end of our stdout is closed too: nothing more can be said there.
    process.stdout.on("error", () => undefined);
    process.stdin.on("end", () => stop("parent gone"));
    process.stdin.on("error", () => stop("parent gone"));
    process.stdin.resume();
  }
} catch (error) {
  const e = error as NodeJS.ErrnoException;
  process.stderr.write(
    e.code === "EADDRINUSE" ? `port ${port} is already in use; pick another with --port\n` : `${e.message}\n`,
  );
  process.exit(1);
}
