import fs from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { grantPermission, PRODUCT_HEADER, productLine, useTempDataDir } from "#test/upload-fixtures";
import { resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { AUDIT_LOG, type AuditEntry } from "~/models/audit.server";
import { CHANNEL } from "~/models/master-data.server";
import { exportCommand } from "./cli-export";
import { CLI_UPLOADER, importCommand } from "./cli-import";

/** The audit trail through the operator's commands: every `portal import` and `portal export` in the audit trail. */

process.env.LOG_LEVEL = "warn";
const testDb = useTestDatabase();
const data = useTempDataDir();

const UPLOADER = "cli-audit-gold@example.com";

beforeAll(async () => {
  resetConfigForTests();
  const db = await testDb.db();
  await applyIndexes(db);
  await grantPermission(db, UPLOADER, "USER GOLD");
});

async function head(): Promise<number> {
  const last = await (await testDb.db()).collection<AuditEntry>(AUDIT_LOG).findOne({}, { sort: { n: -1 } });
  return last?.n ?? 0;
}

async function entriesAfter(since: number): Promise<AuditEntry[]> {
  return (await testDb.db())
    .collection<AuditEntry>(AUDIT_LOG)
    .find({ n: { $gt: since } }, { projection: { _id: 0 } })
    .sort({ n: 1 })
    .toArray();
}

describe("portal import and portal export in the audit trail", () => {
  it("an import: dataImported via the CLI, for --user with its type, or for the operator with the operator's", async () => {
    const file = path.join(data.dir, "cli-audit.csv");
    await fs.writeFile(file, [PRODUCT_HEADER, productLine(1), productLine(2, true)].join("\n"));
    const print = () => undefined;

    let since = await head();
    const withUser = await importCommand([file, "--user", UPLOADER], print, { progressIntervalMs: 20 });
    expect(await entriesAfter(since)).toMatchObject([
      {
        actor: { email: UPLOADER, type: "USER GOLD" },
        ip: null,
        event: "dataImported",
        object: { kind: "file", id: withUser.result.fileId, label: "cli-audit.csv" },
        dataset: "product",
        outcome: "ok",
        details: { via: "cli", ok: 1, nok: 1, status: 0 },
      },
    ]);

    since = await head();
    await importCommand([file], print, { progressIntervalMs: 20 });
    expect(await entriesAfter(since)).toMatchObject([
      {
        actor: { email: CLI_UPLOADER, type: "SYSTEM ADMIN" },
        ip: null,
        event: "dataImported",
        details: { via: "cli", ok: 1, nok: 1 },
      },
    ]);
  });

  it("an export: dataExported with the filter, for the operator, after the file is written", async () => {
    await (await testDb.db())
      .collection(CHANNEL)
      .insertOne({ cnpj: "11222333000181", description: "Loja", channel_siop: "FSS", urlPath: "a.csv" });
    const out = path.join(data.dir, "canais.xlsx");
    const since = await head();
    const stdout = new Writable({ write: (_c, _e, done) => done() });
    await exportCommand(["channel", "file=a.csv", "--out", out], { note: () => undefined, stdout });
    const [entry] = await entriesAfter(since);
    expect(entry).toMatchObject({
      actor: { email: CLI_UPLOADER, type: "SYSTEM ADMIN" },
      ip: null,
      event: "dataExported",
      object: { kind: "dataset", label: out },
      outcome: "ok",
      details: { via: "cli", format: "xlsx", filter: { file: "a.csv" } },
    });
    expect(entry.dataset).toMatch(/channel/);
    expect(entry.details.bytes).toBe((await fs.stat(out)).size);
  });
});
