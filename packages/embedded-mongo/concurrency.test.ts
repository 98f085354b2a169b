import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, stopHarness } from "./test-helpers";

let h: Harness;
const clients: MongoClient[] = [];

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await stopHarness(h);
});

async function parallelClients(n: number): Promise<MongoClient[]> {
  const made = await Promise.all(
    Array.from({ length: n }, async () => {
      const c = new MongoClient(h.server.uri, { maxPoolSize: 4 });
      await c.connect();
      return c;
    }),
  );
  clients.push(...made);
  return made;
}

describe("concurrency", () => {
  it("20 parallel clients $inc the same documents to exact totals", async () => {
    const coll = h.client.db("conc").collection<{ _id: number; n: number; hits: number }>("counters");
    await coll.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: i, n: 0, hits: 0 })));
    const parallel = await parallelClients(20);
    const perClient = 40;
    await Promise.all(
      parallel.map(async (client, c) => {
        const mine = client.db("conc").collection<{ _id: number; n: number; hits: number }>("counters");
        const ops: Promise<unknown>[] = [];
        for (let k = 0; k < perClient; k++) {
          const id = (c + k) % 5;
          ops.push(mine.updateOne({ _id: id }, { $inc: { n: 1, hits: 2 } }));
          if (k % 10 === 0) ops.push(mine.updateMany({}, { $inc: { n: 1 } }));
        }
        await Promise.all(ops);
      }),
    );
    const docs = await coll.find().sort({ _id: 1 }).toArray();
    // Each client does 40 single $inc spread evenly over 5 docs (8 each) and 4 updateMany.
    for (const d of docs) {
      expect(d.hits).toBe(20 * 8 * 2);
      expect(d.n).toBe(20 * 8 + 20 * 4);
    }
  });

  it("findOneAndUpdate hands out every sequence number exactly once", async () => {
    const parallel = await parallelClients(20);
    await h.client
      .db("conc")
      .collection("seq")
      .insertOne({ _id: "s", v: 0 } as never);
    const values = (
      await Promise.all(
        parallel.map((client) =>
          Promise.all(
            Array.from({ length: 10 }, () =>
              client
                .db("conc")
                .collection("seq")
                .findOneAndUpdate({ _id: "s" } as never, { $inc: { v: 1 } }, { returnDocument: "after" }),
            ),
          ),
        ),
      )
    )
      .flat()
      .map((d) => d?.v as number);
    expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it("parallel upserts on a unique key create exactly one document", async () => {
    const parallel = await parallelClients(20);
    const coll = h.client.db("conc").collection("once");
    await coll.createIndex({ key: 1 }, { unique: true });
    await Promise.all(
      parallel.map((client) =>
        client
          .db("conc")
          .collection("once")
          .updateOne({ key: "k" }, { $inc: { n: 1 } }, { upsert: true }),
      ),
    );
    expect(await coll.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ key: "k", n: 20 }]);
  });
});
