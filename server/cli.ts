/**
 * `portal` — the operator's commands, bundled to build/host/cli.js so the image runs them with plain node (no tsx,
 * no dev dependencies):
 *   portal create-admin --email admin@example.com   the first SYSTEM ADMIN (local provider: prints a temporary password)
 *   portal db:indexes                               every index the model modules declare (idempotent; a release step)
 *   portal seed [--scale N] [--if-empty] [--empty] [--reference YYYY-MM-DD]   the demo data (--empty: accounts only)
 *   portal import <file> [--user e-mail] [--target data|explorer|reports]   store and process a file as an upload
 *   portal export <dataset> [field=value …] [--out file.xlsx|file.csv]     a screen's rows as XLSX or CSV
 *   portal audit:verify [--from YYYY-MM-DD] [--to YYYY-MM-DD]   recompute the audit trail's hash chain
 *   portal audit:purge                              remove the audit days older than AUDIT_RETENTION_DAYS
 * In the image: `portal …` (on PATH), `node build/host/cli.js …` or `npm run portal -- …`.
 */
import path from "node:path";
import { accessContext, ConfigError, getConfig } from "../app/config.server";
import { closeDb, getDb } from "../app/db.server";
import { createAdmin } from "../app/features/access/admin-bootstrap.server";
import { applyIndexes } from "../app/models/all-indexes.server";
import {
  PLANNING_ATTRIBUTE_SETS,
  PLANNING_ATTRIBUTE_VALUES,
  rebuildAttributeSets,
} from "../app/models/planning-attribute-sets.server";
import { demoAccountNote } from "../app/seed/accounts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../app/seed/index.server";
import { EXIT_REFUSED, parseSeedArgs, SEED_USAGE } from "../scripts/seed-args";
import { runSeed, SeedRefusedError } from "../scripts/seed-run";
import { auditPurgeCommand, auditVerifyCommand } from "./cli-audit";
import { exportCommand } from "./cli-export";
import { importCommand } from "./cli-import";
import { optionValue, UsageError } from "./cli-support";
import { type DatabaseHandle, useConfiguredDatabase } from "./database";

export const CLI_USAGE = `Usage: portal <command> [options]
Commands:
  create-admin --email <address>   create the first SYSTEM ADMIN (local provider: prints a temporary password)
  db:indexes                       create every declared index and rebuild the planning attribute sets and values from the rows (idempotent)
  seed [--scale N] [--if-empty] [--empty] [--reference YYYY-MM-DD]   write the demo data (--empty: only the demo accounts)
  import <file> [--user <e-mail>] [--target data|explorer|reports]
                                   store the file and process it as an upload, with its progress; exit 1 when refused or with NOK rows
  export <dataset> [field=value …] [--out <file.xlsx|file.csv>] [--format xlsx|csv]
                                   a screen's rows (all pages of the filter) as XLSX or CSV, to the file or stdout
                                   datasets: planning, forecast, hr, product_master, product_master_nok, channel, channel_nok,
                                   planning_spend, planning_spend_nok (filters: see server/cli-export.ts)
  audit:verify [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>]
                                   recompute the audit trail's hash chain (UTC days) and name the first altered,
                                   removed or inserted entry; exit 1 when one is found
  audit:purge                      remove the audit days older than AUDIT_RETENTION_DAYS (the daily retention job, once)
  help                             this text`;

async function dbIndexes(print: (line: string) => void): Promise<void> {
  const started = Date.now();
  const db = await getDb();
  const applied = await applyIndexes(db);
  for (const { collection, names, dropped } of applied) {
    print(`${collection}: ${names.join(", ")}${dropped ? ` (dropped the retired ${dropped.join(", ")})` : ""}`);
  }
  const total = applied.reduce((s, a) => s + a.names.length, 0);
  print(
    `Applied ${total} indexes on ${applied.length} collections of database "${db.databaseName}" in ${Date.now() - started} ms.`,
  );
  // Derived from the plan's rows, which a load made outside the portal may have changed.
  const sets = await rebuildAttributeSets(db);
  print(`Rebuilt ${PLANNING_ATTRIBUTE_SETS} (${sets} SKUs) and ${PLANNING_ATTRIBUTE_VALUES} from planning_quantity.`);
}

async function seed(args: readonly string[], print: (line: string) => void): Promise<void> {
  const parsed = parseSeedArgs(args);
  if (parsed.help) {
    print(SEED_USAGE.replace("tsx scripts/seed.ts", "portal seed"));
    return;
  }
  const started = Date.now();
  const db = await getDb();
  const result = await runSeed(db, parsed, print);
  if (!result.seeded) return;
  const total = Object.values(result.counts).reduce((s, n) => s + n, 0);
  print(`Seeded ${total} documents into "${db.databaseName}" in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  if (parsed.empty)
    print(
      "Empty start: no business data; fill the screens with the upload templates of /captura/manual (or portal import <file>).",
    );
  print(`Demo accounts (password ${DEMO_PASSWORD}):`);
  for (const a of DEMO_ACCOUNTS)
    print(`  ${a.email.padEnd(24)} ${(a.type || "(no type)").padEnd(14)} ${demoAccountNote(a, accessContext())}`);
}

async function createAdminCommand(args: readonly string[], print: (line: string) => void): Promise<void> {
  const email = optionValue(args, "--email");
  if (!email) throw new UsageError("create-admin needs --email <address>");
  const outcome = await createAdmin(email);
  if (outcome.kind === "invalidEmail") throw new UsageError(`not an e-mail address: ${email}`);
  if (outcome.kind === "exists") throw new Error(`${outcome.email} already exists (${outcome.type}); nothing changed.`);
  print(`Created SYSTEM ADMIN ${outcome.email}.`);
  if (outcome.temporaryPassword)
    print(`Temporary password: ${outcome.temporaryPassword}\n(It must be changed at the first sign-in.)`);
  else print("The identity provider e-mails the temporary password.");
}

/** Runs one command; the exit code: 0 done, 1 failed, 2 usage. */
export async function runCli(
  argv: readonly string[],
  print: (line: string) => void = console.log,
  fail: (line: string) => void = console.error,
): Promise<number> {
  const [command, ...args] = argv;
  let database: DatabaseHandle | undefined;
  try {
    // Without MONGODB_URI the commands use the embedded database on DATA_DIR/db (started, or joined while it runs).
    if (
      command === "create-admin" ||
      command === "db:indexes" ||
      command === "seed" ||
      command === "import" ||
      command === "export" ||
      command === "audit:verify" ||
      command === "audit:purge"
    ) {
      database = await useConfiguredDatabase();
    }
    getConfig();
    switch (command) {
      case "create-admin":
        await createAdminCommand(args, print);
        break;
      case "db:indexes":
        await dbIndexes(print);
        break;
      case "seed":
        await seed(args, print);
        break;
      case "import":
        return (await importCommand(args, print)).code;
      case "export":
        // Written to stdout, the file must be alone there: the summary goes to stderr.
        await exportCommand(args, {
          note: args.some((a) => a === "--out" || a === "-o" || a.startsWith("--out=")) ? print : fail,
          stdout: process.stdout,
        });
        break;
      case "audit:verify":
        return await auditVerifyCommand(args, print, fail);
      case "audit:purge":
        return await auditPurgeCommand(args, print);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        print(CLI_USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      fail(`portal: ${error.message}\n${CLI_USAGE}`);
      return 2;
    }
    if (error instanceof SeedRefusedError) {
      fail(`portal ${command}: ${error.message}`);
      return EXIT_REFUSED;
    }
    fail(
      `portal ${command}: ${error instanceof ConfigError || !(error instanceof Error) ? String(error instanceof Error ? error.message : error) : error.message}`,
    );
    return 1;
  } finally {
    await closeDb().catch(() => undefined);
    await database?.stop().catch(() => undefined);
  }
}

// Run only as the entry point (see server/worker.ts for why by file name).
const entry = process.argv[1] ? path.basename(process.argv[1]) : "";
if (/^(cli\.(ts|js|mjs)|portal)$/.test(entry)) {
  void runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
