import { Binary, Code, Decimal128, Int32, Long, MinKey, ObjectId } from "bson";
import { describe, expect, it } from "vitest";
import { bsonTypeName, checkCommandFields } from "./strict";

/** strict.ts: a command's fields checked as mongod 7.0 parses them, before the command runs. */
const refused = (cmd: Record<string, unknown>) => {
  try {
    checkCommandFields(cmd);
  } catch (error) {
    const e = error as { code: number; codeName: string; message: string };
    return { code: e.code, codeName: e.codeName, message: e.message };
  }
  return undefined;
};

describe("checkCommandFields", () => {
  it("accepts a command's own fields and the generic arguments every command takes", () => {
    expect(
      refused({
        find: "c",
        filter: { a: 1 },
        sort: { a: 1 },
        limit: 5,
        batchSize: 2,
        $db: "t",
        lsid: { id: 1 },
        maxTimeMS: 100,
        comment: "x",
        readConcern: { level: "local" },
      }),
    ).toBeUndefined();
    // A field set to undefined is absent; commands not listed are not checked.
    expect(refused({ find: "c", filter: undefined })).toBeUndefined();
    expect(refused({ ping: 1, whatever: true })).toBeUndefined();
  });

  it("refuses an unknown field (40415) and a missing required one (40414)", () => {
    expect(refused({ find: "c", bogusOption: 1 })).toEqual({
      code: 40415,
      codeName: "Location40415",
      message: "BSON field 'find.bogusOption' is an unknown field.",
    });
    expect(refused({ aggregate: "c", cursor: {} })?.message).toBe(
      "BSON field 'aggregate.pipeline' is missing but a required field",
    );
    expect(refused({ delete: "c", deletes: [{ q: {} }] })?.message).toBe(
      "BSON field 'delete.deletes.limit' is missing but a required field",
    );
    // findandmodify is checked under mongod's own name.
    expect(refused({ findandmodify: "c", bogus: 1 })?.message).toBe(
      "BSON field 'findAndModify.bogus' is an unknown field.",
    );
  });

  it("refuses a field of the wrong type with mongod's message", () => {
    expect(refused({ find: "c", filter: 1 })).toMatchObject({
      codeName: "TypeMismatch",
      message: "BSON field 'find.filter' is the wrong type 'int', expected type 'object'",
    });
    expect(refused({ find: "c", limit: "5" })?.message).toBe(
      "BSON field 'find.limit' is the wrong type 'string', expected types '[long, int, decimal, double]'",
    );
    expect(refused({ find: "c", skip: -1 })).toMatchObject({
      code: 51024,
      message: "BSON field 'skip' value must be >= 0, actual value '-1'",
    });
    expect(refused({ find: "c", singleBatch: 1 })?.message).toBe(
      "Field 'singleBatch' should be a boolean value, but found: int",
    );
    expect(refused({ find: "c", hint: 1 })).toMatchObject({
      codeName: "FailedToParse",
      message: "Hint must be a string or an object",
    });
    expect(refused({ delete: "c", deletes: [{ q: {}, limit: 2 }] })?.message).toBe(
      "The limit field in delete objects must be 0 or 1. Got 2",
    );
    expect(refused({ insert: "c", documents: [{ a: 1 }, 3] })?.message).toBe(
      "BSON field 'insert.documents.1' is the wrong type 'int', expected type 'object'",
    );
  });

  it("checks maxTimeMS on every command", () => {
    expect(refused({ ping: 1, maxTimeMS: "1" })?.message).toBe("maxTimeMS must be a number");
    expect(refused({ ping: 1, maxTimeMS: 1.5 })?.message).toBe("maxTimeMS has non-integral value");
    expect(refused({ ping: 1, maxTimeMS: -1 })).toMatchObject({
      codeName: "BadValue",
      message: "-1 value for maxTimeMS is out of range [0, 2147483647]",
    });
    expect(refused({ ping: 1, maxTimeMS: Long.fromNumber(10) })).toBeUndefined();
  });

  it("refuses by name the find options the server cannot honour", () => {
    expect(refused({ find: "c", tailable: true })?.codeName).toBe("BadValue");
    expect(refused({ find: "c", awaitData: true })?.message).toBe(
      "Cannot set 'awaitData' without also setting 'tailable'",
    );
    expect(refused({ find: "c", min: { a: 1 } })).toMatchObject({
      codeName: "IllegalOperation",
      message: "the find option 'min' is not supported by the embedded server",
    });
    expect(refused({ find: "c", min: {} })).toBeUndefined();
    expect(refused({ find: "c", returnKey: true })?.message).toBe(
      "the find option 'returnKey' is not supported by the embedded server",
    );
  });

  it("checks an aggregate's cursor and explain fields, and the command inside an explain", () => {
    expect(refused({ aggregate: "c", pipeline: [], cursor: { batchSize: 10 } })).toBeUndefined();
    expect(refused({ aggregate: "c", pipeline: [], cursor: { other: 1 } })?.message).toBe(
      "BSON field 'cursor.other' is an unknown field.",
    );
    expect(refused({ aggregate: "c", pipeline: [], cursor: { batchSize: -1 } })?.message).toBe(
      "cursor.batchSize must not be negative",
    );
    expect(refused({ aggregate: "c", pipeline: [], explain: 1 })?.message).toBe(
      "BSON field 'aggregate.explain' is the wrong type 'int', expected type 'bool'",
    );
    expect(refused({ explain: { find: "c", bogus: 1 }, verbosity: "queryPlanner" })?.message).toBe(
      "BSON field 'find.bogus' is an unknown field.",
    );
    expect(refused({ explain: "find" })?.message).toBe(
      "BSON field 'explain.explain' is the wrong type 'string', expected type 'object'",
    );
  });
});

describe("bsonTypeName", () => {
  it("names values as mongod's messages do", () => {
    expect(bsonTypeName(null)).toBe("null");
    expect(bsonTypeName(undefined)).toBe("missing");
    expect(bsonTypeName("s")).toBe("string");
    expect(bsonTypeName(true)).toBe("bool");
    expect(bsonTypeName(1)).toBe("int");
    expect(bsonTypeName(1.5)).toBe("double");
    expect(bsonTypeName(2 ** 40)).toBe("double");
    expect(bsonTypeName(10n)).toBe("long");
    expect(bsonTypeName(Long.fromNumber(1))).toBe("long");
    expect(bsonTypeName(new Int32(1))).toBe("int");
    expect(bsonTypeName(Decimal128.fromString("1.5"))).toBe("decimal");
    expect(bsonTypeName([1])).toBe("array");
    expect(bsonTypeName(new Date())).toBe("date");
    expect(bsonTypeName(/x/)).toBe("regex");
    expect(bsonTypeName(new ObjectId())).toBe("objectId");
    expect(bsonTypeName(new Binary(Buffer.from("x")))).toBe("binData");
    expect(bsonTypeName(new MinKey())).toBe("minKey");
    expect(bsonTypeName(new Code("x"))).toBe("javascript");
    expect(bsonTypeName({ a: 1 })).toBe("object");
  });
});
