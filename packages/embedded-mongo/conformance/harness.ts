/**
 * The conformance tests' connection: the embedded server in memory, or a real MongoDB when
 * CONFORMANCE_MONGODB_URI (or MONGODB_URI) is set, so anyone with a mongod 7.0 can confirm the expectations.
 * Each file works in its own database, dropped afterwards.
 */
import { EJSON } from "bson";
import { type Db, type Document, MongoClient } from "mongodb";
import { expect } from "vitest";
import { type EmbeddedMongo, startEmbeddedMongo } from "../index";

export type Conformance = { db: Db; close: () => Promise<void>; real: boolean };

export async function connect(name: string): Promise<Conformance> {
  const uri = process.env.CONFORMANCE_MONGODB_URI || process.env.MONGODB_URI;
  let server: EmbeddedMongo | undefined;
  if (!uri) server = await startEmbeddedMongo({});
  const client = new MongoClient(uri ?? server!.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  const db = client.db(`conformance_${name}`);
  await db.dropDatabase();
  return {
    db,
    real: server === undefined,
    close: async () => {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
      await server?.stop();
    },
  };
}

/** Documents as canonical text, field order included (numbers by value, as the driver returns them). */
export function ordered(value: unknown): string {
  return EJSON.stringify(value as Document, { relaxed: true });
}

/** Asserts documents equal with their fields in the same order, at every depth. */
export function expectOrdered(actual: unknown, expected: unknown): void {
  expect(ordered(actual)).toBe(ordered(expected));
}

export type ExpectedError = { code: number; codeName?: string };

/** Runs an operation that must fail, and checks MongoDB's error code (and codeName when given). */
export async function expectError(
  run: () => Promise<unknown>,
  expected: ExpectedError,
): Promise<Record<string, unknown>> {
  let failure: unknown;
  try {
    await run();
  } catch (error) {
    failure = error;
  }
  expect(failure, `expected error code ${expected.code}`).toBeDefined();
  const err = failure as Record<string, unknown>;
  expect({ code: err.code, ...(expected.codeName ? { codeName: err.codeName } : {}) }).toEqual(expected);
  return err;
}

export async function reset(db: Db, name: string, docs: Document[]): Promise<void> {
  await db
    .collection(name)
    .drop()
    .catch(() => undefined);
  if (docs.length > 0) await db.collection(name).insertMany(docs.map((d) => ({ ...d })));
}
