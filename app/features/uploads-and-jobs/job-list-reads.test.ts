import { beforeAll, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { recordQueryPlans } from "#test/query-plans";
import { endedFileRecord } from "#test/upload-fixtures";
import { applyIndexes } from "~/models/all-indexes.server";
import { FILES } from "~/models/files.server";
import { insertView, SAVED_VIEWS, setDefaultView } from "~/models/saved-views.server";
import { loader as ownLoader } from "~/routes/captura.processando";
import { loader } from "~/routes/jobs.executados";
import { runInRequestScope } from "~/shared/request-scope.server";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The job lists' plain address reads the user's default view with the list's page and counts: one command for the
 * view, the page and the retry count (the whole collection's count is its metadata), whether the view sends the user
 * elsewhere or not.
 */

const testDb = useTestDatabase();
const ADMIN = "admin-reads@example.com";

beforeAll(async () => {
  const db = await testDb.db();
  await applyIndexes(db);
  await db.collection(FILES).insertMany(
    Array.from({ length: 30 }, (_, i) =>
      endedFileRecord({
        user: i % 2 ? ADMIN : "other@example.com",
        statusChangeDate: new Date(Date.UTC(2026, 0, i + 1)),
      }),
    ),
  );
  currentUser.email = ADMIN;
  currentUser.name = "Admin";
  currentUser.type = "SYSTEM ADMIN";
});

const args = (path: string) => ({ request: new Request(`http://localhost${path}`), params: {}, context: {} as never });

async function plainList(run: typeof loader, path: string) {
  const db = await testDb.db();
  // A read of every file would be refused (notablescan from 10 documents): the page comes from the list's index.
  const recorded = await recordQueryPlans(db, () => runInRequestScope(() => run(args(path))), { minDocuments: 10 });
  // The aggregates the page sent (the metadata count has no plan).
  return { ...recorded, aggregates: recorded.plans.filter((p) => p.op === "command" && "aggregate" in p.command) };
}

describe("the job lists' reads", () => {
  it("reads the default view, the page and the retry count in one command", async () => {
    for (const [run, path] of [
      [loader, "/jobs/executados"],
      [ownLoader, "/captura/processando"],
    ] as const) {
      const { result, aggregates } = await plainList(run, path);
      expect(result?.rows.length).toBeGreaterThan(0);
      expect(aggregates).toHaveLength(1);
      expect(aggregates[0].ns.split(".").pop()).toBe(SAVED_VIEWS);
    }
  });

  it("still sends the user to the default view, in the same one command", async () => {
    const view = await insertView({
      user: ADMIN,
      name: "Tamanho 40",
      screen: "/jobs/executados",
      query: "?pageSize=40",
    });
    await setDefaultView(view, true);
    const { error, aggregates } = await plainList(loader, "/jobs/executados");
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).headers.get("Location")).toBe("/jobs/executados?pageSize=40");
    expect(aggregates).toHaveLength(1);
  });
});
