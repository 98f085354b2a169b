import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The embedded database as `npm run demo` and `npm start` without MONGODB_URI run it: the bundle the build writes
 * (build/host/embedded-mongo.js), not the TypeScript sources the other tests load. A bundler may order a module's
 * code differently from the sources (a class's name is bound only after its static blocks run), so the bundle itself
 * must start and answer.
 */

const BUNDLE = "build/host/embedded-mongo.js";
let server: ChildProcess | undefined;

afterAll(() => {
  server?.kill("SIGTERM");
});

/** Starts the bundle in memory on a free port; resolves with its connection string, or rejects with its output. */
function startBundle(): Promise<string> {
  return new Promise((resolve, reject) => {
    server = spawn(process.execPath, [BUNDLE, "--port", "0", "--memory"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const uri = /connection string: (mongodb:\/\/\S+)/.exec(output)?.[1];
      if (uri) resolve(uri);
    };
    server.stdout?.on("data", read);
    server.stderr?.on("data", read);
    server.on("exit", (code) => reject(new Error(`the bundled database exited with ${code}:\n${output}`)));
  });
}

describe("the built embedded database", () => {
  it("starts from the bundle, stores documents and counts them", async () => {
    if (!existsSync(BUNDLE))
      throw new Error(`${BUNDLE} is missing: run \`npm run build\` first (\`npm run test:unit\` does).`);
    const client = await new MongoClient(await startBundle()).connect();
    try {
      const collection = client.db("bundle_check").collection("docs");
      await collection.insertMany([{ a: 1 }, { a: 2 }, { a: 3 }]);
      expect(await collection.countDocuments({ a: { $gte: 2 } })).toBe(2);
      expect(await collection.estimatedDocumentCount()).toBe(3);
    } finally {
      await client.close();
    }
  }, 60_000);
});
