import path from "node:path";
import type { Db, Document } from "mongodb";
import { getConfig } from "~/config.server";
import { documentSink } from "~/features/reports-and-financial/documents-store.server";
import { DASHBOARDS } from "~/models/dashboards.server";
import { EXPLORER_DOCUMENTS, EXPLORER_TERMS, explorerVocabulary } from "~/models/explorer.server";
import { FILES } from "~/models/files.server";
import { FINANCIAL_REPORTS } from "~/models/financial.server";
import { FISCAL_ITEMS } from "~/models/fiscal.server";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_ROLLUPS } from "~/models/forecast-consolidated.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { FPA_RESPONSIBLES } from "~/models/fpa.server";
import { HR_AUX } from "~/models/hr.server";
import { LEDGER, LEDGER_ACCOUNTS } from "~/models/ledger.server";
import {
  CHANNEL,
  CHANNEL_NOK,
  MASTER_DATA_COLLECTIONS,
  PLANNING_SPEND,
  PLANNING_SPEND_NOK,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
} from "~/models/master-data.server";
import { PLANNING_QUANTITY } from "~/models/planning.server";
import {
  AttributeSetCollector,
  PLANNING_ATTRIBUTE_SETS,
  PLANNING_ATTRIBUTE_VALUES,
} from "~/models/planning-attribute-sets.server";
import { REPORTS } from "~/models/reports.server";
import { PRODUCT_REVIEWS } from "~/models/reports-reviews.server";
import { SEASONALITY_PROFILES } from "~/models/seasonality-profiles.server";
import { LOCAL_USERS, USER_PERMISSIONS } from "~/models/users.server";
import { DEMO_ACCOUNTS } from "./accounts";
import { monthStart, type SeedContext } from "./context";
import { generateDashboards } from "./dashboards";
import { generateExplorerDocuments } from "./explorer";
import { generateFiles } from "./files";
import { ForecastRollupCollector, generateForecast, generateForecastPreparers } from "./forecast";
import { generateHr } from "./hr";
import { generateLedger, generateLedgerAccounts } from "./ledger";
import {
  generateChannels,
  generateChannelsNok,
  generateProducts,
  generateProductsNok,
  generateSpend,
  generateSpendNok,
  masterDataCollections,
} from "./master-data";
import { clearPlanningRecords, generatePlanning } from "./planning";
import { DEFAULT_SEED, Random } from "./random";
import {
  generateFinancialReports,
  generateFiscalItems,
  generateFpaResponsibles,
  generateReports,
  generateReviews,
} from "./reports";
import { generateSeasonalityProfiles } from "./seasonality";
import { SeedObjects } from "./stored-objects";
import { generateUsers } from "./users.server";

export { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./accounts";

/** Every collection the seed writes; `npm run seed` drops these before seeding. */
export const SEEDED_COLLECTIONS = [
  USER_PERMISSIONS,
  LOCAL_USERS,
  DASHBOARDS,
  FILES,
  MASTER_DATA_COLLECTIONS,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
  CHANNEL,
  CHANNEL_NOK,
  PLANNING_SPEND,
  PLANNING_SPEND_NOK,
  PLANNING_QUANTITY,
  PLANNING_ATTRIBUTE_SETS,
  PLANNING_ATTRIBUTE_VALUES,
  REPORTS,
  FINANCIAL_REPORTS,
  FORECAST,
  FORECAST_ROLLUPS,
  SEASONALITY_PROFILES,
  HR_AUX,
  EXPLORER_DOCUMENTS,
  // Reports, financial statements, cockpit, FP&A and fiscal asset
  LEDGER_ACCOUNTS,
  LEDGER,
  FPA_RESPONSIBLES,
  FISCAL_ITEMS,
  PRODUCT_REVIEWS,
  EXPLORER_TERMS,
] as const;

export type SeedOptions = {
  /** Multiplies the volumes (1 = at least 100k planning rows, 10k SKUs, 6k files). Must be > 0. */
  scale?: number;
  /** Every date derives from the first day of this date's UTC month. Default: the current month. */
  referenceDate?: Date;
  log?: (line: string) => void;
  /** Defaults to config.tenantId. */
  tenantId?: string;
  /** Defaults to config.storage.bucket. */
  bucket?: string;
  /** The PRNG seed; the same seed and options give the same documents. */
  seed?: number;
  /**
   * The DATA_DIR whose local store receives the seeded files (default config.dataDir), for a server started
   * with another DATA_DIR than the seeding process's. Only used when the bucket is the local store.
   */
  dataDir?: string;
  /**
   * Work for the database once every collection is written, run while the seeded files are still being stored
   * (they take this process, the work the database's): `npm run seed` builds the remaining indexes here.
   */
  afterCollections?: () => Promise<unknown>;
  /** The seeded waiting and running jobs without a lease, for the worker to process (the demo); else they stay so. */
  liveJobs?: boolean;
};

export const SEED_BATCH_SIZE = 5_000;

/**
 * Inserts documents in unordered batches; returns how many were written. One batch is on its way to the database
 * while the next is generated, so the two processes work at the same time (batches still go one after another).
 */
async function insertAll(
  db: Db,
  collection: string,
  docs: Iterable<Document>,
  log: (line: string) => void,
): Promise<number> {
  const target = db.collection(collection);
  let batch: Document[] = [];
  let total = 0;
  let sending: Promise<void> | undefined;
  const send = async (documents: Document[]) => {
    await target.insertMany(documents, { ordered: false });
    total += documents.length;
    if (total % (SEED_BATCH_SIZE * 4) === 0) log(`  ${collection}: ${total}…`);
  };
  const flush = async () => {
    await sending;
    sending = undefined;
    if (batch.length === 0) return;
    sending = send(batch);
    // Its failure is reported by the await above (next batch) or below (the last); not as unhandled meanwhile.
    sending.catch(() => undefined);
    batch = [];
  };
  for (const doc of docs) {
    batch.push(doc);
    if (batch.length >= SEED_BATCH_SIZE) await flush();
  }
  await flush();
  await sending;
  log(`  ${collection}: ${total}`);
  return total;
}

/**
 * The empty start (`npm run demo -- --empty`, `npm run seed -- --empty`): what signing in and the screens' frames
 * need, and no business data. The demo accounts only (not the ordinary users), the dashboard definitions (their
 * charts read files, jobs and the business collections, and show empty until uploads fill them) and the
 * master-data catalogue (which bases the repository screens list: configuration, not rows).
 */
export const EMPTY_START_COLLECTIONS = [USER_PERMISSIONS, LOCAL_USERS, DASHBOARDS, MASTER_DATA_COLLECTIONS] as const;

/** Writes the empty start's documents (EMPTY_START_COLLECTIONS); returns the count per collection. */
export async function seedEmptyStart(
  db: Db,
  options: Pick<SeedOptions, "referenceDate" | "log" | "tenantId" | "bucket" | "seed"> = {},
): Promise<Record<string, number>> {
  const referenceInput = options.referenceDate ?? new Date();
  if (Number.isNaN(referenceInput.getTime())) throw new RangeError("referenceDate is not a valid date");
  const log = options.log ?? (() => {});
  const config = options.tenantId === undefined || options.bucket === undefined ? getConfig() : undefined;
  const ctx: SeedContext = {
    random: new Random(options.seed ?? DEFAULT_SEED, "journey-portal-seed"),
    scale: 1,
    reference: monthStart(referenceInput),
    tenantId: options.tenantId ?? config!.tenantId,
    bucket: options.bucket ?? config!.storage.bucket,
  };
  log("Empty start: the demo accounts, the dashboard definitions and the master-data catalogue; no business data");
  const users = await generateUsers(ctx);
  const demo = new Set(DEMO_ACCOUNTS.map((a) => a.email));
  const localOf = new Map(users.localUsers.map((u) => [u.email, u]));
  const permissions = users.permissions.filter((p) => demo.has(p.user));
  const counts: Record<string, number> = {};
  counts[USER_PERMISSIONS] = await insertAll(db, USER_PERMISSIONS, permissions, log);
  counts[LOCAL_USERS] = await insertAll(
    db,
    LOCAL_USERS,
    permissions.map((p) => localOf.get(p.user)!),
    log,
  );
  counts[DASHBOARDS] = await insertAll(db, DASHBOARDS, generateDashboards(ctx), log);
  counts[MASTER_DATA_COLLECTIONS] = await insertAll(db, MASTER_DATA_COLLECTIONS, masterDataCollections(ctx), log);
  return counts;
}

/**
 * Writes the deterministic demo data into `db` (which should be empty, or at least free of the
 * seeded collections' documents). Returns the number of documents written per collection.
 */
export async function seedDatabase(db: Db, options: SeedOptions = {}): Promise<Record<string, number>> {
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale) || scale <= 0)
    throw new RangeError(`scale must be a number above 0 (got ${String(options.scale)})`);
  const referenceInput = options.referenceDate ?? new Date();
  if (Number.isNaN(referenceInput.getTime())) throw new RangeError("referenceDate is not a valid date");
  const log = options.log ?? (() => {});
  const needsConfig = options.tenantId === undefined || options.bucket === undefined;
  const config = needsConfig ? getConfig() : undefined;
  const ctx: SeedContext = {
    random: new Random(options.seed ?? DEFAULT_SEED, "journey-portal-seed"),
    scale,
    reference: monthStart(referenceInput),
    tenantId: options.tenantId ?? config!.tenantId,
    bucket: options.bucket ?? config!.storage.bucket,
  };
  log(`Seeding at scale ${scale}, reference month ${ctx.reference.toISOString().slice(0, 7)}`);

  const counts: Record<string, number> = {};
  const write = async (collection: string, docs: Iterable<Document>) => {
    counts[collection] = await insertAll(db, collection, docs, log);
  };

  const users = await generateUsers(ctx);
  await write(USER_PERMISSIONS, users.permissions);
  await write(LOCAL_USERS, users.localUsers);
  await write(DASHBOARDS, generateDashboards(ctx));
  await write(MASTER_DATA_COLLECTIONS, masterDataCollections(ctx));
  const products = generateProducts(ctx);
  await write(PRODUCT_MASTER, products);
  await write(PRODUCT_MASTER_NOK, generateProductsNok(ctx));
  await write(CHANNEL, generateChannels(ctx));
  await write(CHANNEL_NOK, generateChannelsNok(ctx));
  await write(PLANNING_SPEND, generateSpend(ctx));
  await write(PLANNING_SPEND_NOK, generateSpendNok(ctx));
  await clearPlanningRecords(db);
  const attributeSets = new AttributeSetCollector();
  await write(PLANNING_QUANTITY, attributeSets.tap(generatePlanning(ctx, products)));
  await write(PLANNING_ATTRIBUTE_SETS, attributeSets.documents());
  await write(PLANNING_ATTRIBUTE_VALUES, attributeSets.values());
  const objects = new SeedObjects();
  await write(FILES, generateFiles(ctx, users.uploaders, objects, { liveJobs: options.liveJobs }));
  await write(REPORTS, generateReports(ctx, users.uploaders, objects));
  const accounts = generateLedgerAccounts();
  const ledger = [...generateLedger(ctx)];
  await write(LEDGER_ACCOUNTS, accounts);
  await write(LEDGER, ledger);
  await write(FINANCIAL_REPORTS, generateFinancialReports(ctx, accounts, ledger, objects));
  await write(FPA_RESPONSIBLES, generateFpaResponsibles(ctx));
  await write(FISCAL_ITEMS, generateFiscalItems(ctx, accounts, ledger, objects));
  // Every stored file is registered by now. Their bytes go to the storage provider of the seeded bucket while the
  // remaining collections go to the database: rendering them keeps this process busy while it would wait on the
  // database.
  const sink = await documentSink({
    bucket: ctx.bucket,
    localRoot: options.dataDir ? path.resolve(options.dataDir, "uploads") : undefined,
  });
  const storing = objects.writeAll(sink);
  // Its failure is reported by the await below, not as unhandled while the collections are written.
  storing.catch(() => undefined);
  await write(PRODUCT_REVIEWS, generateReviews(ctx));
  const rollups = new ForecastRollupCollector(ctx);
  await write(FORECAST, rollups.tap(generateForecast(ctx)));
  await write(FORECAST_ROLLUPS, rollups.documents());
  await write(FORECAST_PREPARERS, generateForecastPreparers(ctx, users.permissions));
  await write(SEASONALITY_PROFILES, generateSeasonalityProfiles(ctx));
  await write(HR_AUX, generateHr(ctx));
  const explorerDocuments = generateExplorerDocuments(ctx);
  await write(EXPLORER_DOCUMENTS, explorerDocuments);
  await write(EXPLORER_TERMS, explorerVocabulary(explorerDocuments));
  const [stored] = await Promise.all([storing, options.afterCollections?.()]);
  log(`  stored files: ${stored}`);
  return counts;
}
