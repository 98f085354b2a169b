import { describe, expect, it } from "vitest";
import { ExecContext } from "../exec";
import { compileFilter } from "../filters";
import { Catalog } from "../storage/catalog";
import type { Doc } from "../values";
import { buildChain, compileUpdateStages, runAggregate } from "./pipeline";
import { MONGOD_STAGES, STAGES, stageFactory } from "./registry";
import { Collector, type PipelineEnv } from "./stage";

/** The stage registry and the chain it builds (stages/pipeline.ts), without a server: documents pushed in, results out. */
function setup(writable = false) {
  const catalog = new Catalog();
  const env: PipelineEnv = {
    catalog,
    db: "t",
    writable,
    ctx: new ExecContext(),
    compile: compileFilter,
    params: { notablescan: false, notablescanMinDocuments: 0 },
    stats: { keysExamined: 0, docsExamined: 0 },
    plans: [],
  };
  const run = (stages: Doc[], docs: Doc[], vars?: Record<string, unknown>): Doc[] => {
    const sink = new Collector();
    const head = buildChain(stages, env, vars, sink);
    for (const d of docs) if (!head.push(d)) break;
    head.end();
    return sink.docs;
  };
  const fill = (name: string, docs: Doc[]) => {
    const coll = catalog.ensureCollection("t", name);
    for (const d of docs) catalog.insert(coll, d);
    return coll;
  };
  return { catalog, env, run, fill };
}

const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    const e = error as { code: number; codeName: string; message: string };
    return { code: e.code, codeName: e.codeName, message: e.message };
  }
  return undefined;
};

const rows: Doc[] = [
  { _id: 1, kind: "a", n: 5, tags: ["x", "y"] },
  { _id: 2, kind: "b", n: 3, tags: [] },
  { _id: 3, kind: "a", n: 1 },
  { _id: 4, kind: "c", n: 4, tags: ["z"] },
];

describe("the stage registry", () => {
  it("maps each stage name the server runs to its factory, the mingo stages to the fallback", () => {
    for (const name of ["$match", "$group", "$sort", "$lookup", "$facet", "$bucketAuto", "$merge", "$out"])
      expect(STAGES.get(name)).toBeTypeOf("function");
    expect(STAGES.get("$set")).toBe(STAGES.get("$addFields"));
    expect(STAGES.get("$densify")).toBe(STAGES.get("$setWindowFields"));
    for (const name of MONGOD_STAGES) expect(STAGES.has(name)).toBe(false);
  });

  it("answers an unknown stage name with mongod's 40324, inherited property names included", () => {
    for (const name of ["$bogus", "constructor", "toString", "$MATCH"]) {
      expect(errorOf(() => stageFactory(name))).toEqual({
        code: 40324,
        codeName: "Location40324",
        message: `Unrecognized pipeline stage name: '${name}'`,
      });
    }
    const { run } = setup();
    expect(errorOf(() => run([{ $match: {} }, { $bogus: 1 }], rows))?.message).toBe(
      "Unrecognized pipeline stage name: '$bogus'",
    );
  });

  it("refuses by name mongod's stages that the embedded server does not run", () => {
    expect(errorOf(() => stageFactory("$search"))).toMatchObject({
      codeName: "IllegalOperation",
      message: "the $search stage is not supported by the embedded server",
    });
  });

  it("checks the shape of a stage before its name", () => {
    const { run } = setup();
    expect(errorOf(() => run([{ $match: {}, $limit: 1 }], rows))?.code).toBe(40323);
    expect(errorOf(() => run([3 as unknown as Doc], rows))?.codeName).toBe("TypeMismatch");
    expect(errorOf(() => run([{ $match: 1 }], rows))?.message).toBe(
      "the match filter must be an expression in an object",
    );
  });
});

describe("stages through the chain", () => {
  it("$match, $group and $sort: sums per group, sorted", () => {
    const { run } = setup();
    const out = run(
      [
        { $match: { n: { $gte: 2 } } },
        { $group: { _id: "$kind", total: { $sum: "$n" }, c: { $sum: 1 } } },
        { $sort: { total: -1 } },
      ],
      rows,
    );
    expect(out).toEqual([
      { _id: "a", total: 5, c: 1 },
      { _id: "c", total: 4, c: 1 },
      { _id: "b", total: 3, c: 1 },
    ]);
  });

  it("$sort takes the $limit after it (a top-k), and the stages after that still run", () => {
    const { run } = setup();
    expect(run([{ $sort: { n: 1 } }, { $limit: 2 }, { $project: { n: 1, _id: 0 } }], rows)).toEqual([
      { n: 1 },
      { n: 3 },
    ]);
    expect(run([{ $skip: 1 }, { $limit: 2 }, { $count: "k" }], rows)).toEqual([{ k: 2 }]);
    expect(errorOf(() => run([{ $limit: 0 }], rows))?.message).toBe(
      "invalid argument to $limit stage: the limit must be positive",
    );
  });

  it("$unwind: one document per element, with the index and the empty arrays kept when asked", () => {
    const { run } = setup();
    expect(run([{ $unwind: "$tags" }, { $project: { tags: 1 } }], rows)).toEqual([
      { _id: 1, tags: "x" },
      { _id: 1, tags: "y" },
      { _id: 4, tags: "z" },
    ]);
    const kept = run(
      [
        { $unwind: { path: "$tags", includeArrayIndex: "i", preserveNullAndEmptyArrays: true } },
        { $project: { tags: 1, i: 1 } },
      ],
      rows,
    );
    expect(kept).toEqual([
      { _id: 1, tags: "x", i: 0 },
      { _id: 1, tags: "y", i: 1 },
      { _id: 2, i: null },
      { _id: 3, i: null },
      { _id: 4, tags: "z", i: 0 },
    ]);
    expect(errorOf(() => run([{ $unwind: "tags" }], rows))?.code).toBe(28818);
  });

  it("$facet runs each sub-pipeline over the same input", () => {
    const { run } = setup();
    expect(
      run([{ $facet: { count: [{ $count: "n" }], kinds: [{ $sortByCount: "$kind" }, { $limit: 1 }] } }], rows),
    ).toEqual([{ count: [{ n: 4 }], kinds: [{ _id: "a", count: 2 }] }]);
  });

  it("$lookup joins the foreign collection, by fields or through a pipeline with variables", () => {
    const { run, fill } = setup();
    fill("kinds", [
      { _id: "a", label: "Alpha" },
      { _id: "b", label: "Beta" },
    ]);
    const joined = run(
      [{ $lookup: { from: "kinds", localField: "kind", foreignField: "_id", as: "k" } }],
      rows.slice(0, 2),
    );
    expect(joined.map((d) => d.k)).toEqual([[{ _id: "a", label: "Alpha" }], [{ _id: "b", label: "Beta" }]]);
    const piped = run(
      [
        {
          $lookup: {
            from: "kinds",
            let: { want: "$kind" },
            pipeline: [{ $match: { $expr: { $eq: ["$_id", "$$want"] } } }, { $project: { _id: 0, label: 1 } }],
            as: "k",
          },
        },
      ],
      rows.slice(2),
    );
    expect(piped.map((d) => d.k)).toEqual([[{ label: "Alpha" }], []]);
  });

  it("$out and $merge write only as the last stage of a top-level aggregate", () => {
    const readOnly = setup(false);
    expect(errorOf(() => readOnly.run([{ $out: "copy" }], rows))?.code).toBe(51047);
    const writable = setup(true);
    expect(errorOf(() => writable.run([{ $out: "copy" }, { $match: {} }], rows))?.message).toBe(
      "$out can only be the final stage in the pipeline",
    );
    writable.run([{ $match: { kind: "a" } }, { $out: "copy" }], rows);
    expect([...writable.catalog.getCollection("t", "copy")!.docs.values()].map((d) => d._id)).toEqual([1, 3]);
  });
});

describe("runAggregate", () => {
  it("gives the leading $match/$sort/$limit to the planner and runs the rest as stages", async () => {
    const { env, fill } = setup();
    const coll = fill("rows", rows);
    const result = await runAggregate(env, coll, "t.rows", [
      { $match: { kind: "a" } },
      { $sort: { n: -1 } },
      { $limit: 1 },
      { $set: { twice: { $multiply: ["$n", 2] } } },
    ]);
    expect(result.docs.map((d) => [d._id, d.twice])).toEqual([[1, 10]]);
    expect(result.rest).toEqual([{ $set: { twice: { $multiply: ["$n", 2] } } }]);
    expect(result.countOnly).toBe(false);
    expect(env.plans).toHaveLength(1);
  });

  it("answers the driver's countDocuments shape by counting", async () => {
    const { env, fill } = setup();
    const coll = fill("rows", rows);
    const result = await runAggregate(env, coll, "t.rows", [
      { $match: { n: { $gt: 1 } } },
      { $group: { _id: 1, n: { $sum: 1 } } },
    ]);
    expect(result).toMatchObject({ countOnly: true, docs: [{ _id: 1, n: 3 }] });
  });
});

describe("compileUpdateStages", () => {
  it("gives a stored document's new version, _id first, without changing the stored object", () => {
    const update = compileUpdateStages([{ $set: { m: { $add: ["$n", 1] } } }, { $unset: "tags" }], undefined);
    const stored = { ...rows[0] };
    expect(update(stored)).toEqual({ _id: 1, kind: "a", n: 5, m: 6 });
    expect(stored).toEqual(rows[0]);
    const replaced = compileUpdateStages([{ $replaceWith: { v: "$n" } }], undefined);
    expect(Object.keys(replaced(rows[1]))).toEqual(["_id", "v"]);
  });

  it("refuses stages an update may not use, and a change of _id", () => {
    expect(errorOf(() => compileUpdateStages([{ $group: { _id: null } }], undefined))?.message).toBe(
      "$group is not allowed to be used within an update",
    );
    const changesId = compileUpdateStages([{ $replaceWith: { _id: 9 } }], undefined);
    expect(errorOf(() => changesId(rows[0]))?.codeName).toBe("ImmutableField");
  });
});
