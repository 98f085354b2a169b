import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { recordQueryPlans } from "#test/query-plans";
import { runInRequestScope } from "~/shared/request-scope.server";
import { aggregateTogether } from "./reads-together.server";

const testDb = useTestDatabase();

async function seed() {
  const db = await testDb.db();
  await db.collection("rt_a").deleteMany({});
  await db.collection("rt_b").deleteMany({});
  await db.collection("rt_a").insertMany([3, 1, 2].map((n) => ({ _id: n as never, n, kind: "a" })));
  await db.collection("rt_b").insertMany([5, 4].map((n) => ({ _id: n as never, n, kind: "b" })));
  return db;
}

const sorted = [{ $sort: { n: -1 } }, { $project: { _id: 0, n: 1 } }];

describe("aggregateTogether", () => {
  it("sends the reads a request starts in one turn as one command, each answered with its own documents in order", async () => {
    const db = await seed();
    const { result, plans } = await recordQueryPlans(db, () =>
      runInRequestScope(() =>
        Promise.all([
          aggregateTogether("rt_a", sorted),
          aggregateTogether("rt_b", sorted),
          aggregateTogether("rt_a", [{ $match: { n: { $gt: 1 } } }, { $count: "n" }]),
          aggregateTogether("rt_b", [{ $match: { n: 99 } }]),
        ]),
      ),
    );
    expect(result).toEqual([[{ n: 3 }, { n: 2 }, { n: 1 }], [{ n: 5 }, { n: 4 }], [{ n: 2 }], []]);
    expect(plans.filter((p) => p.ns.endsWith(".rt_a") || p.ns.endsWith(".rt_b"))).toHaveLength(1);
  });

  it("sends reads of later turns, and reads outside a request, on their own", async () => {
    const db = await seed();
    const { result, plans } = await recordQueryPlans(db, async () => {
      const alone = await aggregateTogether("rt_b", sorted);
      const inTurns = await runInRequestScope(async () => {
        const first = await aggregateTogether("rt_a", sorted);
        // Started after the first answered: a turn of its own.
        const second = await aggregateTogether("rt_b", sorted);
        return [first, second];
      });
      return [alone, ...inTurns];
    });
    expect(result).toEqual([
      [{ n: 5 }, { n: 4 }],
      [{ n: 3 }, { n: 2 }, { n: 1 }],
      [{ n: 5 }, { n: 4 }],
    ]);
    expect(plans.filter((p) => p.ns.endsWith(".rt_a") || p.ns.endsWith(".rt_b"))).toHaveLength(3);
  });

  it("refuses every read of a turn when the database refuses one of them", async () => {
    await seed();
    const outcomes = await runInRequestScope(() =>
      Promise.allSettled([
        aggregateTogether("rt_a", sorted),
        aggregateTogether("rt_b", [{ $group: { _id: { $nonsense: 1 } } }]),
      ]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    // The next turn is not affected.
    expect(await runInRequestScope(() => aggregateTogether("rt_a", sorted))).toHaveLength(3);
  });
});
