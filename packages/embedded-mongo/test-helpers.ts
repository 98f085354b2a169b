/** Shared by this folder's tests: an in-memory server and a connected driver client. */
import { MongoClient } from "mongodb";
import { type EmbeddedMongo, startEmbeddedMongo } from "./index";

export type Harness = { server: EmbeddedMongo; client: MongoClient };

export async function startHarness(dbPath?: string): Promise<Harness> {
  const server = await startEmbeddedMongo({ dbPath });
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  return { server, client };
}

export async function stopHarness(h: Harness | undefined): Promise<void> {
  if (!h) return;
  await h.client.close();
  await h.server.stop();
}

/** A server on the data directory `dir` for `work` with a client of its own; both stopped after it, however it ends. */
export async function withServer<T>(dir: string, work: (client: MongoClient) => Promise<T>): Promise<T> {
  const server = await startEmbeddedMongo({ dbPath: dir });
  const client = new MongoClient(server.uri);
  try {
    return await work(client);
  } finally {
    await client.close();
    await server.stop();
  }
}

/** serverStatus once the data directory has loaded (`embedded.loading` false), waiting up to 10 s. */
export async function loadedStatus(client: MongoClient) {
  let status = await client.db("admin").command({ serverStatus: 1 });
  for (let tries = 0; status.embedded.loading && tries < 200; tries++) {
    await new Promise((r) => setTimeout(r, 50));
    status = await client.db("admin").command({ serverStatus: 1 });
  }
  return status;
}
