/** The insert decoder must give exactly what the official codec gives, or step aside. */
import v8 from "node:v8";
import { Binary, BSON, Decimal128, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp } from "bson";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeDocumentFast,
  decodeDocumentInto,
  decodeInsertBody,
  idValueAt,
  rawDocumentsArrayOf,
  rawDocumentsOf,
  readFieldsInto,
} from "./bson-decode";
import { type EmbeddedMongo, startEmbeddedMongo } from "./index";
import { withIdFirst } from "./storage/doc-writes";
import type { Doc } from "./values";
import { parseMessage } from "./wire";

const OPTIONS = { promoteLongs: true, promoteValues: true, promoteBuffers: false, bsonRegExp: false } as const;
const official = (bytes: Buffer): Doc => BSON.deserialize(bytes, OPTIONS);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PLAIN: (() => unknown)[] = [
  () => 0,
  () => -0,
  () => 42,
  () => -7,
  () => 2 ** 31,
  () => 1.5,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => "",
  () => "SKU123",
  () => "Ação de inverno — São Paulo",
  () => "emoji 🚀 and \uFFFD replacement",
  () => "x".repeat(300),
  () => true,
  () => false,
  () => null,
  () => new Date(0),
  () => new Date(-86_400_000 * 400),
  () => new Date(Date.UTC(2027, 11, 31)),
  () => new ObjectId(),
  () => Long.fromNumber(2 ** 40),
  () => Long.fromNumber(-(2 ** 40)),
  () => Long.fromString("9007199254740992"), // 2^53: the codec promotes it
  () => Long.fromString("9007199254740993"), // beyond 2^53: stays a Long
  () => Long.fromString("-9007199254740992"),
  () => new Int32(5),
];
const EXOTIC: (() => unknown)[] = [
  () => new Binary(Buffer.from([1, 2, 3])),
  () => Decimal128.fromString("1.10"),
  () => /ab+c/i,
  () => new Timestamp({ t: 1, i: 2 }),
  () => new MinKey(),
  () => new MaxKey(),
  () => ({ $ref: "c", $id: 1 }),
];

function value(r: () => number, depth: number, exotic: boolean): unknown {
  const x = r();
  if (depth < 3 && x < 0.1) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1, exotic));
  if (depth < 3 && x < 0.2) return doc(r, depth + 1, exotic);
  if (exotic && x < 0.25) return EXOTIC[Math.floor(r() * EXOTIC.length)]();
  return PLAIN[Math.floor(r() * PLAIN.length)]();
}

const NAMES = ["_id", "sku", "marca", "a", "b.c", "", "ção", "__proto__", "$x", "10", "2"];

function doc(r: () => number, depth: number, exotic: boolean): Doc {
  const out: Doc = {};
  const n = Math.floor(r() * 8);
  for (let i = 0; i < n; i++) {
    const name = NAMES[Math.floor(r() * (exotic ? NAMES.length : NAMES.length - 3))];
    if (name === "__proto__")
      Object.defineProperty(out, name, {
        value: value(r, depth, exotic),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[name] = value(r, depth, exotic);
  }
  return out;
}

/** ObjectIds as their hex strings (the decoder's are packed: object-id.ts), everything else as it is. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof ObjectId) return `ObjectId(${v.toHexString()})`;
  if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Doc = {};
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, { value: plain(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

/** Same values, same types and the same field order (BSON re-encoding shows all three). */
function expectSame(actual: unknown, expected: unknown) {
  expect(plain(actual)).toStrictEqual(plain(expected));
  expect(Buffer.from(BSON.serialize({ v: actual }))).toEqual(Buffer.from(BSON.serialize({ v: expected })));
}

describe("a cold document's reads (cold.ts)", () => {
  const IDS: (() => unknown)[] = [
    () => new ObjectId(),
    () => "sku-9",
    () => "Ação",
    () => 41,
    () => -2.5,
    () => ({ k: 1 }),
    () => new Date(5),
    () => null,
  ];

  it("reads a leading `_id` of the types it knows, then decodes the rest into the same object as the official codec would", () => {
    const r = rng(19);
    let cold = 0;
    for (let k = 0; k < 2000; k++) {
      const base = doc(r, 0, k % 3 === 0);
      // An own "__proto__" copied by assignment would set the copy's prototype.
      Reflect.deleteProperty(base, "__proto__");
      const stored = withIdFirst({ ...base, _id: IDS[k % IDS.length]() });
      const bytes = Buffer.concat([Buffer.from([7, 7]), Buffer.from(BSON.serialize(stored))]);
      const expected = official(bytes.subarray(2));
      const id = idValueAt(bytes, 2);
      // A JavaScript object lists integer-like keys ("2", "10") before any other, so `_id` is not always first.
      const first = Object.keys(expected)[0] === "_id";
      const known =
        first &&
        ["ObjectId", "string", "number"].includes(expected._id instanceof ObjectId ? "ObjectId" : typeof expected._id);
      expect(id === undefined).toBe(!known);
      if (id === undefined) continue;
      cold++;
      expectSame(id, expected._id);
      const target: Doc = { _id: id };
      decodeDocumentInto(bytes, 2, bytes.length - 2, target);
      expectSame(target, expected);
      expect(target._id).toBe(id);
    }
    expect(cold).toBeGreaterThan(1000);
  });

  it("reads top-level scalar fields without decoding the document, and declines any other value", () => {
    const r = rng(23);
    const names = ["sku", "marca", "a", "missing"];
    let read = 0;
    let declined = 0;
    for (let k = 0; k < 3000; k++) {
      const bytes = Buffer.from(BSON.serialize(doc(r, 0, k % 2 === 0)));
      const expected = official(bytes);
      const out: unknown[] = ["stale", "stale", "stale", "stale", "stale"];
      const ok = readFieldsInto(bytes, 0, names, out, 1);
      if (!ok) {
        // Only for a document, an array, a value the fast decoder leaves to the official codec (an int64 from 2^53,
        // the exotic types) or a string it cannot vouch for (a replacement character).
        declined++;
        expect(names.some((n) => !readable(expected[n]))).toBe(true);
        continue;
      }
      read++;
      expect(out[0]).toBe("stale");
      names.forEach((n, f) => {
        expectSame(out[1 + f], expected[n]);
      });
    }
    expect(read).toBeGreaterThan(1000);
    expect(declined).toBeGreaterThan(100);
  });
});

/** A value readFieldsInto reads itself (an int64 of 2^53 or more is left to the official codec, which may promote it). */
function readable(v: unknown): boolean {
  if (typeof v === "string") return !v.includes("\uFFFD");
  if (typeof v === "number") return !(Math.abs(v) >= 2 ** 53);
  return v === undefined || v === null || typeof v === "boolean" || v instanceof Date || v instanceof ObjectId;
}

describe("decodeDocumentFast", () => {
  it("decodes generated documents exactly as BSON.deserialize, or declines", () => {
    const r = rng(7);
    let decoded = 0;
    for (let k = 0; k < 3000; k++) {
      const bytes = Buffer.from(BSON.serialize(doc(r, 0, k % 3 === 0)));
      const padded = Buffer.concat([Buffer.from([9, 9, 9]), bytes, Buffer.from([9])]);
      const fast = decodeDocumentFast(padded, 3, bytes.length);
      if (fast === undefined) continue;
      decoded++;
      expectSame(fast, official(bytes));
    }
    expect(decoded).toBeGreaterThan(500);
  });

  it("declines corrupted documents that the official codec rejects, and agrees on the rest", () => {
    const r = rng(11);
    for (let k = 0; k < 3000; k++) {
      const bytes = Buffer.from(BSON.serialize(doc(r, 0, false)));
      const flips = 1 + Math.floor(r() * 3);
      for (let f = 0; f < flips; f++) bytes[Math.floor(r() * bytes.length)] = Math.floor(r() * 256);
      let expected: Doc | Error;
      try {
        expected = official(bytes);
      } catch (error) {
        expected = error as Error;
      }
      const fast = decodeDocumentFast(bytes, 0, bytes.readInt32LE(0));
      if (expected instanceof Error) expect(fast).toBeUndefined();
      else if (fast !== undefined) expectSame(fast, expected);
    }
  });

  it("gives back each short string exactly, across more distinct strings of one length than its shared-string table holds", () => {
    // Short values are handed out from a table of recently decoded strings: equal length, different bytes must never match.
    const values = Array.from({ length: 40_000 }, (_, k) =>
      k % 2 ? `SKU${String(k).padStart(6, "0")}` : `Lojã${String(k).padStart(5, "0")}`,
    );
    const r = rng(3);
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < values.length; k++) {
        const v = values[Math.floor(r() * values.length)];
        const bytes = Buffer.from(BSON.serialize({ a: v, b: "FSS" }));
        expect(decodeDocumentFast(bytes, 0, bytes.length)).toEqual({ a: v, b: "FSS" });
      }
    }
    const invalid = Buffer.from(BSON.serialize({ a: "Lojã00000" }));
    invalid[invalid.indexOf("Loj") + 3] = 0xff;
    expect(decodeDocumentFast(invalid, 0, invalid.length)).toBeUndefined();
  });

  it("gives back each date exactly, across more distinct dates than its shared-date table holds, and shares a repeated one", () => {
    const r = rng(5);
    // Whole months (a planning row's dateRef), random instants, and times either side of 2^32 ms and of the epoch.
    const times = [
      ...Array.from({ length: 26 }, (_, m) => Date.UTC(2025, m, 1)),
      ...Array.from({ length: 20_000 }, () => Math.floor((r() - 0.3) * 4e12)),
      2 ** 32 - 1,
      2 ** 32,
      2 ** 32 + 1,
      -1,
      0,
      1,
      -(2 ** 32),
    ];
    const decoded = (t: number) => {
      const bytes = Buffer.from(BSON.serialize({ d: new Date(t) }));
      return (decodeDocumentFast(bytes, 0, bytes.length) as { d: Date }).d;
    };
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < times.length; k++) {
        const t = times[Math.floor(r() * times.length)];
        expect(decoded(t).getTime()).toBe(t);
      }
    }
    expect(decoded(Date.UTC(2025, 3, 1))).toBe(decoded(Date.UTC(2025, 3, 1)));
  });

  it("declines invalid UTF-8 in a string, which the official codec rejects", () => {
    const bytes = Buffer.from(BSON.serialize({ s: "abcd" }));
    bytes[bytes.indexOf("abcd") + 1] = 0xff;
    expect(() => official(bytes)).toThrow();
    expect(decodeDocumentFast(bytes, 0, bytes.length)).toBeUndefined();
  });
});

describe("decodeInsertBody", () => {
  const body = (documents: unknown[], extra: Doc = {}) =>
    Buffer.from(
      BSON.serialize({
        insert: "c",
        documents,
        ordered: false,
        lsid: { id: new Binary(Buffer.alloc(16), 4) },
        $db: "d",
        ...extra,
      }),
    );

  /** A document as the server stores it: `_id` first (the given one where the document had none). */
  const withId = (d: Doc, id: unknown): Doc => {
    const out: Doc = { _id: "_id" in d ? d._id : id };
    for (const k of Object.keys(d))
      if (k !== "_id")
        Object.defineProperty(out, k, { value: d[k], enumerable: true, writable: true, configurable: true });
    return out;
  };

  it("gives the same command as BSON.deserialize, with documents last, each document's _id first (a new ObjectId where it had none)", () => {
    const r = rng(3);
    let generated = 0;
    for (let k = 0; k < 200; k++) {
      const documents = Array.from({ length: Math.floor(r() * 20) }, () => doc(r, 0, k % 2 === 0));
      const bytes = body(documents, { comment: "x" });
      const fast = decodeInsertBody(bytes, 0, bytes.length, official);
      expect(fast).toBeDefined();
      const expected = official(bytes);
      const { documents: expectedDocs, ...expectedRest } = expected;
      const { documents: fastDocs, ...fastRest } = fast!;
      expectSame(fastRest, expectedRest);
      const docs = fastDocs as Doc[];
      // A document the fast decoder declines (exotic names, below) is the official codec's, as it is; the bytes of
      // one it decoded are kept when it had an _id of its own.
      const raws = rawDocumentsOf(docs)!;
      const declined = (d: Doc, i: number) => raws[i] === undefined && ("_id" in d || !("_id" in docs[i]));
      (expectedDocs as Doc[]).forEach((d, i) => {
        if (!("_id" in d) && !declined(d, i)) {
          expect(docs[i]._id).toBeInstanceOf(ObjectId);
          generated++;
        }
      });
      expectSame(
        docs,
        (expectedDocs as Doc[]).map((d, i) => (declined(d, i) ? d : withId(d, docs[i]._id))),
      );
      expect(Object.keys(fast!).at(-1)).toBe("documents");
    }
    expect(generated).toBeGreaterThan(100);
  });

  it("stores wide documents as fast objects, not hash tables: a planning row's 18 fields, _id moved first or generated", () => {
    // V8 turns an object built from a one-key literal into a dictionary (far more memory) from its 16th key on.
    v8.setFlagsFromString("--allow-natives-syntax");
    const hasFastProperties = new Function("o", "return %HasFastProperties(o)") as (o: unknown) => boolean;
    const fields = [
      "creationDate",
      "sku",
      "material_description",
      "valor",
      "marca",
      "channel",
      "hero",
      "abcd",
      "plc_localsku",
      "category_sku",
      "categoria_principal_sku",
      "sub_categoria_sku",
      "dateRef",
      "updatedBy",
      "updatedAt",
      "revision",
      "lastSaveId",
    ];
    const row: Doc = Object.fromEntries(fields.map((f, i) => [f, `v${i}`]));
    const bytes = body([{ ...row, _id: new ObjectId() }, row]);
    const docs = decodeInsertBody(bytes, 0, bytes.length, official)!.documents as Doc[];
    for (const d of docs) {
      expect(Object.keys(d)).toEqual(["_id", ...fields]);
      expect(hasFastProperties(d)).toBe(true);
    }
    const moved = withIdFirst({ ...row, _id: 1 });
    expect(Object.keys(moved)[0]).toBe("_id");
    expect(hasFastProperties(moved)).toBe(true);
  });

  it("keeps the whole documents array's bytes only when every document carries its own _id", () => {
    const withIds = [
      { _id: 1, a: "x" },
      { a: "y", _id: new ObjectId() },
    ];
    const bytes = body(withIds);
    const fast = decodeInsertBody(bytes, 0, bytes.length, official)!;
    const array = rawDocumentsArrayOf(fast.documents as unknown[])!;
    expect(
      official(
        Buffer.concat([Buffer.from([array.length + 8, 0, 0, 0, 4, 0x64, 0]), array, Buffer.from([0])]).subarray(0),
      ).d,
    ).toEqual(official(Buffer.from(BSON.serialize({ d: withIds }))).d);
    expect(Object.keys((fast.documents as Doc[])[1])).toEqual(["_id", "a"]);
    const oneWithout = body([{ _id: 1 }, { a: 2 }]);
    const decoded = decodeInsertBody(oneWithout, 0, oneWithout.length, official)!;
    expect(rawDocumentsArrayOf(decoded.documents as unknown[])).toBeUndefined();
    expect(rawDocumentsOf(decoded.documents as unknown[])!.map((b) => b !== undefined)).toEqual([true, false]);
  });

  it("declines other commands and bodies whose documents are not all documents", () => {
    const update = Buffer.from(BSON.serialize({ update: "c", updates: [{ q: {}, u: { $set: { a: 1 } } }], $db: "d" }));
    expect(decodeInsertBody(update, 0, update.length, official)).toBeUndefined();
    const scalars = body([1, 2]);
    expect(decodeInsertBody(scalars, 0, scalars.length, official)).toBeUndefined();
    const bad = body([{ s: "abcd" }]);
    bad[bad.indexOf("abcd") + 1] = 0xff;
    expect(decodeInsertBody(bad, 0, bad.length, official)).toBeUndefined();
    expect(() => official(bad)).toThrow();
  });

  it("is what parseMessage uses for an insert", () => {
    const documents = [{ _id: new ObjectId(), a: "x" }, { b: Decimal128.fromString("1") }];
    const bytes = body(documents);
    const message = Buffer.concat([Buffer.alloc(21), bytes]);
    message.writeInt32LE(message.length, 0);
    message.writeInt32LE(2013, 12);
    const request = parseMessage(message);
    expect(request.command.insert).toBe("c");
    expectSame(request.command.documents, official(bytes).documents);
  });
});

describe("inserts through the driver", () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  beforeAll(async () => {
    server = await startEmbeddedMongo();
    client = await new MongoClient(server.uri).connect();
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it("stores and returns every plain type unchanged, and still refuses unsupported ones", async () => {
    const c = client.db("decode").collection<{ _id: ObjectId | number; [field: string]: unknown }>("t");
    const original = {
      _id: new ObjectId(),
      s: "São Paulo 🚀",
      n: 1.25,
      i: 7,
      negZero: -0,
      big: 2 ** 40,
      d: new Date(Date.UTC(2027, 0, 2)),
      b: true,
      z: null,
      arr: [1, "two", { three: 3 }, [4]],
      sub: { x: new ObjectId(), y: [new Date(0)] },
      bin: new Binary(Buffer.from("hi")),
    };
    await c.insertMany([original, { _id: 2, plain: "row" }]);
    const back = await c.findOne({ _id: original._id });
    expect(back).toEqual(original);
    expect(Object.is(back!.negZero, -0)).toBe(true);
    expect(Buffer.from(BSON.serialize(back!))).toEqual(Buffer.from(BSON.serialize(original)));
    await expect(c.insertMany([{ _id: 3, price: Decimal128.fromString("1.5") }])).rejects.toMatchObject({
      code: 2,
    });
    await expect(c.insertMany([{ _id: 2, again: true }], { ordered: false })).rejects.toMatchObject({ code: 11000 });
  });
});
