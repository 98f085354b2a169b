/**
 * "This code's queries use indexes": runs app code (a loader, a model function) against the test
 * database with MongoDB's `notablescan` on and the profiler recording every operation, then fails
 * when any query read a collection of `minDocuments` or more without an index.
 *
 *   const testDb = useTestDatabase();
 *   it("lists a page from an index", async () => {
 *     const db = await testDb.db();
 *     await seedManyRows(db);                        // enough rows for a scan to count
 *     const page = await expectIndexedQueries(db, () => listPlanningPage({ page: 3 }));
 *     expect(page.rows).toHaveLength(20);
 *   });
 *
 * Works on the embedded server (which also takes `notablescanMinDocuments`, so small lookup
 * collections may still be scanned) and on a real mongod (notablescan and system.profile are
 * MongoDB's own; there every collection scan is refused, whatever its size). See docs/performance.md.
 */
import type { Db, Document } from "mongodb";

export type QueryPlanRecord = {
  /** "db.collection" */
  ns: string;
  op: string;
  /** MongoDB's plan summary: "IXSCAN { user: 1, statusChangeDate: -1 }", "COUNT_SCAN …", "IDHACK", "COLLSCAN" … */
  planSummary: string;
  /** Documents in the collection when the query ran. */
  collectionSize: number;
  /** notablescan refused the query (error 291). */
  refused: boolean;
  command: Document;
};

export type IndexedQueryOptions = {
  /** Collections with fewer documents may be scanned (default 1,000). */
  minDocuments?: number;
};

const DEFAULT_MIN_DOCUMENTS = 1_000;

async function setNoTableScan(db: Db, on: boolean, minDocuments: number): Promise<void> {
  const admin = db.client.db("admin");
  await admin.command({ setParameter: 1, notablescan: on });
  // The embedded server's own threshold; a real mongod has no such parameter.
  await admin.command({ setParameter: 1, notablescanMinDocuments: on ? minDocuments : 0 }).catch(() => undefined);
}

/** Runs `work` with the profiler on and collection scans refused; returns its result and every query's plan. */
export async function recordQueryPlans<T>(
  db: Db,
  work: () => Promise<T>,
  options: IndexedQueryOptions = {},
): Promise<{ result?: T; error?: unknown; plans: QueryPlanRecord[] }> {
  const minDocuments = options.minDocuments ?? DEFAULT_MIN_DOCUMENTS;
  await db.command({ profile: 0 });
  await db
    .collection("system.profile")
    .drop()
    .catch(() => undefined);
  await setNoTableScan(db, true, minDocuments);
  await db.command({ profile: 2 });
  let result: T | undefined;
  let error: unknown;
  try {
    result = await work();
  } catch (caught) {
    error = caught;
  } finally {
    await db.command({ profile: 0 });
    await setNoTableScan(db, false, 0);
  }
  const entries = await db.collection("system.profile").find({}).sort({ ts: 1 }).toArray();
  const plans: QueryPlanRecord[] = [];
  for (const e of entries) {
    if (typeof e.planSummary !== "string") continue;
    const [, coll] = String(e.ns).split(/\.(.*)/s);
    const size =
      typeof e.collectionSize === "number" ? e.collectionSize : await db.collection(coll).estimatedDocumentCount();
    plans.push({
      ns: String(e.ns),
      op: String(e.op),
      planSummary: e.planSummary,
      collectionSize: size,
      refused: e.errCode === 291,
      command: e.command ?? {},
    });
  }
  return { result, error, plans };
}

/** The queries that scanned (or were refused a scan of) a collection of at least `minDocuments`. */
export function collectionScans(plans: QueryPlanRecord[], minDocuments = DEFAULT_MIN_DOCUMENTS): QueryPlanRecord[] {
  return plans.filter((p) => p.refused || (/\bCOLLSCAN\b/.test(p.planSummary) && p.collectionSize >= minDocuments));
}

function describeScan(p: QueryPlanRecord): string {
  const { lsid: _l, $db: _d, ...command } = p.command;
  return `  ${p.ns} (${p.collectionSize} documents)${p.refused ? " refused by notablescan" : ""}: ${JSON.stringify(command)}`;
}

/**
 * Runs `work` and fails when any of its queries scanned a collection of `minDocuments` or more.
 * Returns what `work` returned; rethrows its error with the scans listed when a scan caused it.
 */
export async function expectIndexedQueries<T>(
  db: Db,
  work: () => Promise<T>,
  options: IndexedQueryOptions = {},
): Promise<T> {
  const minDocuments = options.minDocuments ?? DEFAULT_MIN_DOCUMENTS;
  const { result, error, plans } = await recordQueryPlans(db, work, { minDocuments });
  const scans = collectionScans(plans, minDocuments);
  if (scans.length > 0) {
    const message = `${scans.length} quer${scans.length === 1 ? "y" : "ies"} read a collection without an index (declare one in the model's indexes):\n${scans.map(describeScan).join("\n")}`;
    throw new Error(
      error instanceof Error ? `${message}\n(the code under test failed with: ${error.message})` : message,
    );
  }
  if (error !== undefined) throw error;
  return result as T;
}
