/**
 * `npm run demo`: starts the embedded database on ./data/db as its own process (it opens the data
 * directory once), seeds it when it is empty (the seed connects to it like any client), then runs the
 * production build on it. The web process reaches the database over a socket and holds no data.
 *
 * `npm run demo -- --empty`: the empty start: only the demo accounts (and the dashboard definitions and the
 * master-data catalogue), no business data. Refused on a data directory that holds other data (the demo data
 * or a company's own); a directory an earlier empty start created is reused as it is.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startEmbeddedDbProcess } from "embedded-mongo/process";
import { MongoClient } from "mongodb";
import { parseConfig } from "../app/config.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoAccountNote } from "../app/seed/accounts";
import { EXIT_REFUSED } from "../scripts/seed-args";
import { WEB_NODE_FLAGS } from "./web-flags";

const DEMO_USAGE = "Usage: npm run demo [-- --empty]";
const demoArgs = process.argv.slice(2);
const unknownArg = demoArgs.find((a) => a !== "--empty");
if (unknownArg) {
  process.stderr.write(`Unknown argument "${unknownArg}". ${DEMO_USAGE}\n`);
  process.exit(2);
}
const emptyStart = demoArgs.includes("--empty");

const port = process.env.PORT || "3000";
const dataDir = path.resolve(process.env.DATA_DIR || "./data");
mkdirSync(dataDir, { recursive: true });

/** A random session secret kept with the demo data, so sign-ins survive a restart. */
function demoSessionSecret(): string {
  const file = path.join(dataDir, "demo-session-secret");
  if (existsSync(file)) {
    const saved = readFileSync(file, "utf8").trim();
    if (saved.length >= 32) return saved;
  }
  const secret = crypto.randomBytes(32).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  PORT: port,
  DATA_DIR: dataDir,
  // The one place that allows the embedded database under NODE_ENV=production.
  ALLOW_EMBEDDED_DB: "1",
  SESSION_SECRET: process.env.SESSION_SECRET || demoSessionSecret(),
};
delete env.MONGODB_URI;

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function waitUntilReady(url: string, child: { exitCode: number | null }): Promise<boolean> {
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

function banner() {
  const width = Math.max(...DEMO_ACCOUNTS.map((a) => a.email.length));
  // What each account opens, read from the access table under the configuration the server runs with.
  const { features, hrEditorTypes } = parseConfig(env);
  const context = { features, hrEditorTypes };
  const lines = [
    "",
    "Journey Portal demo",
    `  URL:       http://localhost:${port}`,
    `  Database:  embedded MongoDB-compatible server (its own process), data in ${path.join(dataDir, "db")}`,
    "             NODE_ENV=production with ALLOW_EMBEDDED_DB=1: allowed for this demo only;",
    "             a real deployment sets MONGODB_URI.",
    ...(emptyStart
      ? [
          "  Empty start: the demo accounts only, no business data. Download the templates on /captura/manual",
          "             (sign in as sysadmin@demo.local) and upload them, or use npm run portal -- import <file>.",
        ]
      : []),
    `  Password of every demo account: ${DEMO_PASSWORD}`,
    ...DEMO_ACCOUNTS.map((a) =>
      `    ${a.email.padEnd(width)}  ${(a.type || "(no type)").padEnd(13)}  ${demoAccountNote(a, context)}`.trimEnd(),
    ),
    "  Stop with Ctrl+C.",
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function main() {
  const started = Date.now();
  process.stdout.write(`Starting the embedded database on ${path.join(dataDir, "db")}...\n`);
  const db = await startEmbeddedDbProcess(path.join(dataDir, "db"), { env });
  env.MONGODB_URI = db.uri;
  const stopDb = async () => {
    await db.stop?.();
  };

  process.stdout.write(
    emptyStart
      ? `Writing the demo accounts only (empty start; kept when an earlier empty start wrote them)...\n`
      : `Seeding it (skipped when it already holds data)...\n`,
  );
  const seed = () =>
    run(process.execPath, [
      path.resolve("node_modules/tsx/dist/cli.mjs"),
      "scripts/seed.ts",
      "--if-empty",
      // The seeded queue's files are processed by the demo's worker, as uploads are: nothing waits forever.
      ...(emptyStart ? ["--empty"] : ["--live-jobs"]),
    ]);
  if (await finishedSeedOfThisKind(db.uri)) {
    // Seeded before: the web process starts at once, while the seed step only applies the indexes (it waits for the
    // database to load the large collections; the pages need only the small ones first).
    void seed().then((code) => {
      if (code !== 0)
        process.stderr.write(
          `Applying the indexes failed (exit code ${code}); the portal keeps running on the existing ones.\n`,
        );
    });
    return startWeb(started, stopDb);
  }
  const seedExit = await seed();
  if (seedExit === EXIT_REFUSED) {
    const relative = path.relative(process.cwd(), dataDir);
    const shown = relative === "" ? "." : relative.startsWith("..") ? dataDir : `./${relative}`;
    process.stderr.write(
      [
        "",
        `${shown} already holds data, so it cannot be an empty start: the demo does not start.`,
        `  Keep that data and start empty elsewhere:  DATA_DIR=./data-empty npm run demo -- --empty`,
        `  or delete ${shown} and run npm run demo -- --empty again.`,
        `  (npm run demo without --empty opens ${shown} as it is.)`,
        "",
      ].join("\n"),
    );
    await stopDb();
    process.exit(seedExit);
  }
  if (seedExit !== 0) {
    process.stderr.write(`The seed failed (exit code ${seedExit}); the demo does not start.\n`);
    await stopDb();
    process.exit(seedExit);
  }

  await startWeb(started, stopDb);
}

/** Whether the data directory holds a finished seed of the kind asked for (demo data, or an empty start). */
async function finishedSeedOfThisKind(uri: string): Promise<boolean> {
  const client = new MongoClient(uri);
  try {
    const state = await client
      .db(env.DATABASE_NAME || "journey_portal")
      .collection<{ _id: string; state?: string; kind?: string }>("seed_state")
      .findOne({ _id: "demo" });
    return state?.state === "complete" && (state.kind === "empty") === emptyStart;
  } finally {
    await client.close();
  }
}

async function startWeb(started: number, stopDb: () => Promise<void>): Promise<void> {
  const server = spawn(process.execPath, [...WEB_NODE_FLAGS, "build/host/index.js"], { env, stdio: "inherit" });
  const forward = (signal: NodeJS.Signals) => server.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  // The web server drains its requests first; then the database stops (and compacts its journal).
  server.on("exit", (code, signal) => void stopDb().finally(() => process.exit(code ?? (signal ? 0 : 1))));

  if (await waitUntilReady(`http://127.0.0.1:${port}/readyz`, server)) {
    banner();
    process.stdout.write(`  Ready ${((Date.now() - started) / 1000).toFixed(1)} s after start.\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
