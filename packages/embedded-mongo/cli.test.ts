import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));

describe("cli", () => {
  it("prints the connection string and serves the driver", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "cli.ts"), "--port", "0", "--memory"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "development" },
    });
    try {
      const uri = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const m = /connection string: (mongodb:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.on("exit", (code) => reject(new Error(`cli exited with ${code}: ${out}`)));
      });
      const client = new MongoClient(uri);
      try {
        await client.db("cli").collection("c").insertOne({ a: 1 });
        expect(await client.db("cli").collection("c").countDocuments()).toBe(1);
      } finally {
        await client.close();
      }
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("refuses to listen beyond loopback without --insecure-no-auth, since it has no authentication", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(here, "cli.ts"), "--host", "0.0.0.0", "--port", "0", "--memory"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    // A server that did start is stopped rather than left listening on every interface.
    const timer = setTimeout(() => child.kill("SIGTERM"), 15_000);
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve)).finally(() =>
      clearTimeout(timer),
    );
    expect(code).toBe(2);
    expect(err).toMatch(/no authentication/);
    expect(err).toContain("--insecure-no-auth");
  });

  it("listens beyond loopback with --insecure-no-auth, warning that anyone who reaches it can read and write", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        path.join(here, "cli.ts"),
        "--host",
        "0.0.0.0",
        "--insecure-no-auth",
        "--max-connections",
        "50",
        "--port",
        "0",
        "--memory",
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_ENV: "development" } },
    );
    try {
      let err = "";
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (/connection string: /.test(out)) resolve();
        });
        child.on("exit", (code) => reject(new Error(`cli exited with ${code}: ${out} ${err}`)));
      });
      expect(err).toMatch(/WARNING: .*no authentication/);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("rejects a bad --max-connections with a clear message", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "cli.ts"), "--max-connections", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(err).toContain("--max-connections must be");
  });

  it("rejects a bad port with a clear message", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "cli.ts"), "--port", "abc"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(err).toContain("--port must be a whole number");
  });
});
