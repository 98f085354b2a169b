import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { resetConfigForTests } from "~/config.server";
import { purgeExpiredAuditDays } from "~/features/audit/retention.server";
import { applyIndexes } from "~/models/all-indexes.server";
import {
  AUDIT_DAYS,
  AUDIT_LOG,
  type AuditEntry,
  appendAuditEntry,
  auditHash,
  indexes as auditIndexes,
  forgetAuditHeads,
} from "~/models/audit.server";
import { SCHEDULED_TASKS } from "~/scheduled-tasks.server";
import { auditVerifyCommand } from "./cli-audit";
import { UsageError } from "./cli-support";

/** `portal audit:verify` names the first altered, removed or inserted entry; the retention job on a pinned clock. */

const testDb = useTestDatabase();

beforeEach(async () => {
  const db = await testDb.db();
  await db
    .collection(AUDIT_LOG)
    .drop()
    .catch(() => undefined);
  await db.collection(AUDIT_DAYS).deleteMany({});
  forgetAuditHeads();
  await applyIndexes(db, auditIndexes);
});

afterEach(() => {
  delete process.env.AUDIT_RETENTION_DAYS;
  resetConfigForTests();
});

async function appendOn(day: string, count: number) {
  for (let i = 0; i < count; i++) {
    await appendAuditEntry(
      { actor: { email: "a@example.com", type: "SYSTEM ADMIN" }, event: "signIn", outcome: "ok", details: { i } },
      new Date(`${day}T1${i}:00:00Z`),
    );
  }
}

async function verify(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await auditVerifyCommand(
    args,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("portal audit:verify", () => {
  it("answers 0 and the last hash for an intact chain, over the whole log or some days", async () => {
    await appendOn("2026-05-01", 3);
    await appendOn("2026-05-02", 2);
    const all = await verify();
    expect(all.code).toBe(0);
    expect(all.out).toMatch(/audit:verify OK: 5 entries from 2026-05-01 to 2026-05-02 verified/);
    expect(all.out).toMatch(/Last hash: [0-9a-f]{64}/);
    expect((await verify("--from", "2026-05-02", "--to=2026-05-02")).out).toMatch(/OK: 2 entries/);
    await expect(verify("--from", "2026-5-2")).rejects.toBeInstanceOf(UsageError);
  });

  it("names the altered, the removed and the inserted entry by day and number (exit 1)", async () => {
    await appendOn("2026-05-01", 3);
    await appendOn("2026-05-02", 3);
    const db = await testDb.db();
    const log = db.collection<AuditEntry>(AUDIT_LOG);

    await log.updateOne({ day: "2026-05-02", seq: 2 }, { $set: { outcome: "failed" } });
    const altered = await verify();
    expect(altered.code).toBe(1);
    expect(altered.err).toContain("audit:verify FAILED: altered entry 2026-05-02#2 (n 5)");
    await log.updateOne({ day: "2026-05-02", seq: 2 }, { $set: { outcome: "ok" } });
    expect((await verify()).code).toBe(0);

    const removedEntry = await log.findOne({ day: "2026-05-01", seq: 2 });
    await log.deleteOne({ day: "2026-05-01", seq: 2 });
    const removed = await verify();
    expect(removed.code).toBe(1);
    expect(removed.err).toContain("audit:verify FAILED: removed entry 2026-05-01#2 (n 2)");
    await log.insertOne(removedEntry!);
    expect((await verify()).code).toBe(0);

    await log.dropIndexes();
    const { _id, ...original } = (await log.findOne({ day: "2026-05-02", seq: 1 }))!;
    const forged = { ...original, actor: { email: "intruso@example.com", name: null, type: "SYSTEM ADMIN" } };
    await log.insertOne({ ...forged, hash: auditHash(forged) });
    const inserted = await verify();
    expect(inserted.code).toBe(1);
    expect(inserted.err).toContain("audit:verify FAILED: inserted entry 2026-05-02#1 (n 4)");
  });
});

describe("portal audit:verify after several tamperings", () => {
  it("names every altered, removed and inserted entry, not only the first, and counts them (exit 1)", async () => {
    await appendOn("2026-05-01", 4);
    await appendOn("2026-05-02", 4);
    const db = await testDb.db();
    const log = db.collection<AuditEntry>(AUDIT_LOG);
    // A lone surrogate written by the portal itself is not a tampering.
    await appendAuditEntry(
      { actor: null, event: "dataImported", outcome: "failed", details: { message: "Cabe\uD800alho" } },
      new Date("2026-05-02T15:00:00Z"),
    );
    await log.updateOne({ day: "2026-05-01", seq: 2 }, { $set: { outcome: "failed" } });
    await log.deleteOne({ day: "2026-05-02", seq: 1 });
    await log.dropIndexes();
    const { _id, ...original } = (await log.findOne({ day: "2026-05-02", seq: 3 }))!;
    const forged = { ...original, actor: { email: "intruso@example.com", name: null, type: "SYSTEM ADMIN" } };
    await log.insertOne({ ...forged, hash: auditHash(forged) });
    await log.updateOne({ day: "2026-05-02", seq: 4 }, { $set: { "actor.email": "outro@example.com" } });

    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.err.split("\n").filter((line) => line.startsWith("audit:verify FAILED"))).toEqual([
      expect.stringContaining("altered entry 2026-05-01#2 (n 2)"),
      expect.stringContaining("removed entry 2026-05-02#1 (n 5)"),
      expect.stringContaining("inserted entry 2026-05-02#3 (n 7)"),
      expect.stringContaining("altered entry 2026-05-02#4 (n 8)"),
    ]);
    expect(result.err).toContain("4 problems (2 altered, 1 removed, 1 inserted)");
  });
});

describe("audit retention", () => {
  it("keeps 400 days by default: removes only whole days older than that, and the rest still verifies", async () => {
    const now = new Date("2027-06-10T03:00:00Z");
    // 401 days before now is 2026-05-05; 400 days before is 2026-05-06.
    await appendOn("2026-05-04", 2);
    await appendOn("2026-05-05", 2);
    await appendOn("2026-05-06", 2);
    await appendOn("2027-06-09", 1);
    expect(await purgeExpiredAuditDays(now)).toEqual(["2026-05-04", "2026-05-05"]);
    const db = await testDb.db();
    // The purge's own entry is on the day it ran.
    expect(await db.collection(AUDIT_LOG).distinct("day")).toEqual(["2026-05-06", "2027-06-09", "2027-06-10"]);
    expect(await db.collection(AUDIT_DAYS).countDocuments()).toBe(2);
    expect((await verify()).out).toMatch(/OK: 4 entries from 2026-05-06/);
    // Run again the same day: nothing more to remove.
    expect(await purgeExpiredAuditDays(now)).toEqual([]);
  });

  it("follows AUDIT_RETENTION_DAYS, and is a daily scheduled task", async () => {
    process.env.AUDIT_RETENTION_DAYS = "30";
    resetConfigForTests();
    await appendOn("2026-05-01", 1);
    await appendOn("2026-05-31", 1);
    const task = SCHEDULED_TASKS.find((t) => t.name === "audit-retention");
    expect(task?.everyMs).toBe(86_400_000);
    await task?.run(new Date("2026-06-30T12:00:00Z"));
    const db = await testDb.db();
    expect(await db.collection(AUDIT_LOG).distinct("day")).toEqual(["2026-05-31", "2026-06-30"]);
    expect((await verify()).code).toBe(0);
  });
});
