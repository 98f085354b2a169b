import { describe, expect, it } from "vitest";
import { assertVariablesDefined, compileExpression, resolvePath, textScores, usesUserVariables } from "./expressions";

/** expressions.ts: aggregation expressions compiled once into functions of a document and the variables. */
describe("resolvePath", () => {
  it("reads a dotted path, expanding arrays into arrays of values as MongoDB does", () => {
    const doc = { a: { b: 1 }, list: [{ x: 1 }, { x: 2 }, { y: 3 }, [{ x: 4 }]], n: 5 };
    expect(resolvePath(doc, ["a", "b"])).toBe(1);
    expect(resolvePath(doc, ["list", "x"])).toEqual([1, 2, [4]]);
    expect(resolvePath(doc, ["n", "deeper"])).toBeUndefined();
    expect(resolvePath(doc, ["missing"])).toBeUndefined();
    expect(resolvePath(doc, [])).toBe(doc);
  });
});

describe("compileExpression", () => {
  const doc = { _id: 1, a: 2, b: { c: 3 }, s: "x", list: [1, 2, 3], nil: null };

  it("evaluates field paths, literals and system variables", () => {
    expect(compileExpression("$a")(doc)).toBe(2);
    expect(compileExpression("$b.c")(doc)).toBe(3);
    expect(compileExpression("plain")(doc)).toBe("plain");
    expect(compileExpression(7)(doc)).toBe(7);
    expect(compileExpression("$$ROOT")(doc)).toBe(doc);
    expect(compileExpression("$$CURRENT.b.c")(doc)).toBe(3);
    expect(compileExpression("$$REMOVE")(doc)).toBeUndefined();
    expect(compileExpression("$$NOW")(doc)).toBeInstanceOf(Date);
    expect(compileExpression({ $literal: "$a" })(doc)).toBe("$a");
    expect(compileExpression(["$a", "$b.c"])(doc)).toEqual([2, 3]);
  });

  it("reads user variables, and refuses one that is not defined (17276)", () => {
    expect(compileExpression("$$limit")(doc, { limit: 10 })).toBe(10);
    expect(compileExpression("$$point.y")(doc, { point: { y: 4 } })).toBe(4);
    expect(() => compileExpression("$$nope")(doc, {})).toThrow(
      expect.objectContaining({ code: 17276, message: "Use of undefined variable: nope" }),
    );
  });

  it("compares in BSON order and combines conditions", () => {
    expect(compileExpression({ $eq: ["$a", 2] })(doc)).toBe(true);
    expect(compileExpression({ $gt: ["$s", 100] })(doc)).toBe(true); // strings sort after numbers
    expect(compileExpression({ $lt: ["$nil", 0] })(doc)).toBe(true); // null before numbers
    expect(compileExpression({ $and: [{ $gte: ["$a", 2] }, { $ne: ["$s", "y"] }] })(doc)).toBe(true);
    expect(compileExpression({ $or: [false, 0, null] })(doc)).toBe(false);
    expect(compileExpression({ $not: [0] })(doc)).toBe(true);
  });

  it("evaluates $cond (both forms), $ifNull and arithmetic", () => {
    expect(compileExpression({ $cond: [{ $gt: ["$a", 1] }, "big", "small"] })(doc)).toBe("big");
    // biome-ignore lint/suspicious/noThenProperty: $cond's documented object form has a `then` key
    expect(compileExpression({ $cond: { if: { $gt: ["$a", 5] }, then: "big", else: "small" } })(doc)).toBe("small");
    expect(compileExpression({ $ifNull: ["$nil", "$missing", "fallback"] })(doc)).toBe("fallback");
    expect(compileExpression({ $add: ["$a", "$b.c", 10] })(doc)).toBe(15);
  });

  it("falls back to mingo for other operators, with the variables in scope", () => {
    expect(compileExpression({ $size: "$list" })(doc)).toBe(3);
    expect(compileExpression({ $toUpper: "$s" })(doc)).toBe("X");
    expect(
      compileExpression({ $map: { input: "$list", in: { $multiply: ["$$this", "$$k"] } } })(doc, { k: 2 }),
    ).toEqual([2, 4, 6]);
  });
});

describe("usesUserVariables", () => {
  it("is true only for $$names other than the system variables, at any depth", () => {
    expect(usesUserVariables("$$ROOT")).toBe(false);
    expect(usesUserVariables("$$NOW")).toBe(false);
    expect(usesUserVariables("$field")).toBe(false);
    expect(usesUserVariables("$$orderId")).toBe(true);
    expect(usesUserVariables({ $expr: { $eq: ["$a", "$$x.y"] } })).toBe(true);
    expect(usesUserVariables([{ a: 1 }, ["$$CURRENT.a"]])).toBe(false);
  });
});

describe("assertVariablesDefined", () => {
  it("accepts system variables, the command's variables and those an enclosing operator binds", () => {
    expect(() => assertVariablesDefined({ $eq: ["$$ROOT.a", "$$x"] }, { x: 1 })).not.toThrow();
    expect(() => assertVariablesDefined({ $let: { vars: { v: 1 }, in: "$$v" } }, undefined)).not.toThrow();
    expect(() => assertVariablesDefined({ $map: { input: [1], as: "item", in: "$$item" } }, undefined)).not.toThrow();
    expect(() => assertVariablesDefined({ $filter: { input: [1], cond: "$$this" } }, undefined)).not.toThrow();
    expect(() =>
      assertVariablesDefined({ $reduce: { input: [1], initialValue: 0, in: ["$$value", "$$this"] } }, undefined),
    ).not.toThrow();
    expect(() => assertVariablesDefined({ $literal: "$$anything" }, undefined)).not.toThrow();
  });

  it("refuses any other variable with mongod's 17276", () => {
    expect(() => assertVariablesDefined({ $eq: ["$a", "$$missing"] }, { other: 1 })).toThrow(
      expect.objectContaining({ code: 17276, message: "Use of undefined variable: missing" }),
    );
    // A variable bound by $map is not visible outside it.
    expect(() => assertVariablesDefined([{ $map: { input: [], as: "i", in: "$$i" } }, "$$i"], undefined)).toThrow(
      expect.objectContaining({ code: 17276 }),
    );
  });
});

describe("textScores", () => {
  it("holds a document's text score without changing the document", () => {
    const doc = { _id: 1 };
    textScores.set(doc, 1.5);
    expect(compileExpression({ $meta: "textScore" })(doc)).toBe(1.5);
    expect(Object.keys(doc)).toEqual(["_id"]);
  });
});
