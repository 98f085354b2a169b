import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { recordQueryPlans } from "#test/query-plans";
import { runInRequestScope } from "~/shared/request-scope.server";
import { dataStates, noteDataChanged } from "./dashboard-cache.server";
import { aggregateTogether } from "./reads-together.server";

const testDb = useTestDatabase();

describe("dataStates", () => {
  it("reads the versions with the request's other reads on the portal's database, given or not", async () => {
    const db = await testDb.db();
    await db.collection("dc_a").insertMany([{ n: 1 }, { n: 2 }]);
    await noteDataChanged(["dc_a"], db);
    for (const given of [undefined, db]) {
      const { result, plans } = await recordQueryPlans(db, () =>
        runInRequestScope(() =>
          Promise.all([dataStates(["dc_a"], given), aggregateTogether("dc_b", [{ $match: { n: 1 } }])]),
        ),
      );
      expect(result?.[0].get("dc_a")).toBe("dc_a@1#2");
      expect(plans.filter((p) => "aggregate" in p.command || "find" in p.command)).toHaveLength(1);
    }
  });

  it("reads alone on another database (the CLI's and the workers' own)", async () => {
    const db = await testDb.db();
    const other = db.client.db(`${db.databaseName}_other`);
    await other.collection("dc_a").insertOne({ n: 1 });
    await noteDataChanged(["dc_a"], other);
    const states = await runInRequestScope(() =>
      Promise.all([dataStates(["dc_a"], other), aggregateTogether("dc_b", [{ $match: { n: 1 } }])]),
    );
    expect(states[0].get("dc_a")).toBe("dc_a@1#1");
    await other.dropDatabase();
  });
});
