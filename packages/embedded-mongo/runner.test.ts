import type { Long } from "bson";
import { afterEach, describe, expect, it } from "vitest";
import { CommandRunner } from "./commands";
import type { ServerInfo } from "./replies";
import { CATALOG_FREE, COMMAND_ALIASES, namespacesOf } from "./runner";
import { Catalog } from "./storage/catalog";
import type { Doc } from "./values";

/** runner.ts (CommandCore) and what it reaches: dispatch, reads, writes, explain, the profiler and cursors. */
const info: ServerInfo = { connectionId: 1, startedAt: new Date(), port: 0 };
const runners: CommandRunner[] = [];

function runner() {
  const r = new CommandRunner(new Catalog());
  runners.push(r);
  const run = (cmd: Doc, db = "t") => r.run({ ...cmd, $db: db }, info);
  return { r, run };
}

afterEach(() => {
  for (const r of runners.splice(0)) r.close();
});

describe("namespacesOf", () => {
  it("names the collections a command reads or writes, pipelines' foreign and target collections included", () => {
    expect(namespacesOf({ find: "c" }, "t")).toEqual(["t.c"]);
    expect(
      namespacesOf(
        {
          aggregate: "c",
          pipeline: [
            { $lookup: { from: "f", as: "x", pipeline: [{ $unionWith: "u" }] } },
            { $merge: { into: { db: "other", coll: "m" } } },
          ],
        },
        "t",
      ),
    ).toEqual(["t.c", "t.f", "t.u", "other.m"]);
    expect(namespacesOf({ aggregate: "c", pipeline: [{ $out: "o" }] }, "t")).toEqual(["t.c", "t.o"]);
    expect(namespacesOf({ explain: { count: "c", $db: "x" } }, "t")).toEqual(["x.c"]);
  });

  it("waits for no collection for catalogue-free commands, for all of them for listings", () => {
    expect(namespacesOf({ ping: 1 }, "t")).toEqual([]);
    expect(namespacesOf({ aggregate: 1, pipeline: [] }, "t")).toEqual([]);
    expect(namespacesOf({ listCollections: 1 }, "t")).toBe("all");
    expect(namespacesOf({ dropDatabase: 1 }, "t")).toBe("all");
    expect(CATALOG_FREE.has("getMore")).toBe(true);
  });
});

describe("dispatch", () => {
  it("answers an unknown command, or an inherited property name, with CommandNotFound", async () => {
    const { run } = runner();
    for (const name of ["nope", "constructor", "toString", "ISMASTER"]) {
      expect(await run({ [name]: 1 })).toMatchObject({
        ok: 0,
        codeName: "CommandNotFound",
        errmsg: `no such command: '${name}'`,
      });
    }
  });

  it("runs mongod's own aliases and nothing else", async () => {
    const { run } = runner();
    expect(Object.keys(COMMAND_ALIASES)).toEqual(["ismaster", "buildinfo", "findandmodify"]);
    expect(await run({ ismaster: 1 })).toMatchObject({ ok: 1, ismaster: true });
    expect(await run({ buildinfo: 1 })).toMatchObject({ ok: 1, version: "7.0.0" });
  });

  it("refuses transactions, collations and unknown fields before the handler runs", async () => {
    const { run } = runner();
    expect(await run({ find: "c", startTransaction: true })).toMatchObject({ ok: 0, codeName: "IllegalOperation" });
    expect(await run({ find: "c", collation: { locale: "fr" } })).toMatchObject({ ok: 0, codeName: "BadValue" });
    expect(await run({ find: "c", collation: { locale: "simple" } })).toMatchObject({ ok: 1 });
    expect(await run({ find: "c", bogus: 1 })).toMatchObject({ ok: 0, code: 40415 });
  });
});

describe("reads, writes and cursors", () => {
  it("inserts, updates (with an upsert) and deletes through the catalogue", async () => {
    const { r, run } = runner();
    expect(
      await run({
        insert: "c",
        documents: [
          { _id: 1, a: 1 },
          { _id: 2, a: 2 },
          { _id: 3, a: 3 },
        ],
      }),
    ).toEqual({ n: 3, ok: 1 });
    const updated = await run({
      update: "c",
      updates: [
        { q: { a: { $gte: 2 } }, u: { $inc: { a: 10 } }, multi: true },
        { q: { _id: 9 }, u: [{ $set: { made: true } }], upsert: true },
      ],
    });
    expect(updated).toMatchObject({ ok: 1, n: 3, nModified: 2, upserted: [{ index: 1, _id: 9 }] });
    expect(await run({ delete: "c", deletes: [{ q: { a: { $gt: 10 } }, limit: 0 }] })).toEqual({ n: 2, ok: 1 });
    const coll = r.catalog.getCollection("t", "c")!;
    expect([...coll.docs.values()]).toEqual([
      { _id: 1, a: 1 },
      { _id: 9, made: true },
    ]);
  });

  it("keeps a cursor for what the first batch left, and drops it with its namespace", async () => {
    const { r, run } = runner();
    await run({ insert: "c", documents: [{ _id: 1 }, { _id: 2 }, { _id: 3 }] });
    const first = (await run({ find: "c", sort: { _id: 1 }, batchSize: 2 })) as {
      cursor: { id: Long; firstBatch: Doc[] };
    };
    expect(first.cursor.firstBatch).toEqual([{ _id: 1 }, { _id: 2 }]);
    expect(first.cursor.id.isZero()).toBe(false);
    expect(r.cursors.size).toBe(1);
    const more = await run({ getMore: first.cursor.id, collection: "c" });
    expect(more).toMatchObject({ ok: 1, cursor: { nextBatch: [{ _id: 3 }] } });
    const again = (await run({ find: "c", batchSize: 1 })) as { cursor: { id: Long } };
    expect(again.cursor.id.isZero()).toBe(false);
    r.dropCursors("t.c");
    expect(r.cursors.size).toBe(0);
  });

  it("reads counts, distinct values and aggregates", async () => {
    const { r } = runner();
    await r.run(
      {
        insert: "c",
        documents: [
          { _id: 1, k: "x" },
          { _id: 2, k: "y" },
          { _id: 3, k: "x" },
        ],
        $db: "t",
      },
      info,
    );
    expect((await r.readCount({ count: "c", query: { k: "x" } }, "t")).nReturned).toBe(2);
    expect((await r.readDistinct({ distinct: "c", key: "k" }, "t")).docs).toEqual(["x", "y"]);
    const agg = await r.readAggregate({ aggregate: "c", pipeline: [{ $sortByCount: "$k" }] }, "t", true);
    expect(agg.docs).toEqual([
      { _id: "x", count: 2 },
      { _id: "y", count: 1 },
    ]);
    expect(agg.stages).toEqual([{ $sortByCount: "$k" }]);
  });
});

describe("explain and the profiler", () => {
  it("explains a find with the plan the planner chose", async () => {
    const { run } = runner();
    await run({ insert: "c", documents: [{ _id: 1, a: 1 }] });
    await run({ createIndexes: "c", indexes: [{ key: { a: 1 }, name: "a_1" }] });
    const out = (await run({ explain: { find: "c", filter: { a: 1 } }, verbosity: "executionStats" })) as Doc;
    expect(out).toMatchObject({
      ok: 1,
      queryPlanner: {
        namespace: "t.c",
        winningPlan: { stage: "FETCH", inputStage: { stage: "IXSCAN", indexName: "a_1" } },
      },
      executionStats: { nReturned: 1 },
    });
    expect(await run({ explain: { drop: "c" } })).toMatchObject({ ok: 0, codeName: "CommandNotFound" });
  });

  it("records reads and writes once profiling is on, and serves them as system.profile", async () => {
    const { r, run } = runner();
    await run({ insert: "c", documents: [{ _id: 1 }] });
    expect(r.profileState("t").level).toBe(0);
    await run({ find: "c" });
    r.profileState("t").level = 2;
    await run({ find: "c", filter: { _id: 1 } });
    await run({ update: "c", updates: [{ q: { _id: 1 }, u: { $set: { x: 1 } } }] });
    const profiled = (await run({ find: "system.profile" })) as { cursor: { firstBatch: Doc[] } };
    expect(profiled.cursor.firstBatch.map((e) => [e.op, e.ns])).toEqual([
      ["query", "t.c"],
      ["update", "t.c"],
    ]);
    expect(profiled.cursor.firstBatch[0]).toMatchObject({ nreturned: 1, planSummary: "IDHACK" });
  });

  it("records a query notablescan refused, with its error", async () => {
    const { r, run } = runner();
    await run({ insert: "c", documents: [{ _id: 1, a: 1 }] });
    r.profileState("t").level = 2;
    r.params.notablescan = true;
    expect(await run({ find: "c", filter: { a: 1 } })).toMatchObject({ ok: 0, codeName: "NoQueryExecutionPlans" });
    expect(r.profileState("t").entries.at(-1)).toMatchObject({
      op: "find",
      planSummary: "COLLSCAN",
      errName: "NoQueryExecutionPlans",
    });
  });
});
