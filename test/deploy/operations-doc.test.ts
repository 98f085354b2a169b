import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";

/** docs/operations.md lists every variable the configuration schema reads, with the default the schema applies. */

const doc = readFileSync("docs/operations.md", "utf8");
const rows = new Map(
  [...doc.matchAll(/^\| `([A-Z0-9_]+)`(?:, `[A-Z0-9_]+`)* \| ([^|]+) \|/gm)].map((m) => [m[1], m[2].trim()]),
);
const schemaVariables = [...readFileSync("app/config.server.ts", "utf8").matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map(
  (m) => m[1],
);
const workerVariables = [...readFileSync("server/worker.ts", "utf8").matchAll(/^ {2}(WORKER_[A-Z_]+):/gm)].map(
  (m) => m[1],
);

describe("docs/operations.md", () => {
  it("documents every environment variable of the schema and of the worker", () => {
    expect(schemaVariables.length).toBeGreaterThan(60);
    expect([...schemaVariables, ...workerVariables].filter((name) => !rows.has(name))).toEqual([]);
  });

  it("gives the defaults the schema applies", () => {
    const config = parseConfig({ NODE_ENV: "test" });
    const documented = (name: string) => rows.get(name)?.replace(/`/g, "");
    expect(documented("PORT")).toBe(String(config.port));
    expect(documented("HTTP_KEEP_ALIVE_TIMEOUT_MS")).toBe(String(config.httpKeepAliveTimeoutMs));
    expect(documented("TRUST_PROXY")).toBe(String(config.trustProxyHops));
    expect(documented("MONGODB_TIMEOUT_MS")).toBe(String(config.mongodbTimeoutMs));
    expect(documented("SMTP_CONNECTION_TIMEOUT_MS")).toBe(String(config.smtpTimeouts.connectionMs));
    expect(documented("SMTP_SEND_TIMEOUT_MS")).toBe(String(config.smtpTimeouts.sendMs));
    expect(documented("S3_FORCE_PATH_STYLE")).toBe("0");
    expect(documented("S3_OBJECT_TAGGING")).toBe("0");
    expect(documented("MULTI_INSTANCE")).toBe("0");
    expect(documented("UPLOAD_MAX_BYTES")).toBe(String(config.storage.maxBytes));
    expect(documented("SESSION_IDLE_MINUTES")).toBe(String(config.session.idleMinutes));
    expect(documented("HR_EDITOR_TYPES")).toBe(config.hrEditorTypes.join(","));
    expect(documented("DATABASE_NAME")).toBe(config.databaseName);
  });
});
