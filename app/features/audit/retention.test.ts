import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { AUDIT_LOG, type AuditEntry, appendAuditEntry, verifyAuditChain } from "~/models/audit.server";
import { purgeExpiredAuditDays } from "./retention.server";

/** The retention job leaves a trace of its own: a purge of old days is itself an entry of the audit trail. */

process.env.LOG_LEVEL = "warn";
const testDb = useTestDatabase();

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db());
});

async function newest(): Promise<AuditEntry | null> {
  return (await testDb.db()).collection<AuditEntry>(AUDIT_LOG).findOne({}, { sort: { n: -1 }, projection: { _id: 0 } });
}

describe("the audit retention", () => {
  it("writes an entry for a purge: the days and entries removed, the cutoff; the chain still verifies", async () => {
    for (const day of ["2025-01-01", "2025-01-01", "2025-01-02", "2026-03-01"]) {
      await appendAuditEntry(
        { actor: { email: "a@example.com" }, event: "signIn", outcome: "ok" },
        new Date(`${day}T12:00:00Z`),
      );
    }
    const now = new Date("2026-03-02T03:00:00Z");
    expect(await purgeExpiredAuditDays(now)).toEqual(["2025-01-01", "2025-01-02"]);
    expect(await newest()).toMatchObject({
      event: "auditPurged",
      actor: { email: null, name: null, type: null },
      object: { kind: "audit", id: "retention" },
      outcome: "ok",
      at: now,
      details: { cutoff: "2025-01-26", days: ["2025-01-01", "2025-01-02"], entries: 3, retentionDays: 400 },
    });
    expect(await verifyAuditChain()).toMatchObject({ ok: true, checked: 2 });

    // A run that removes nothing leaves no entry.
    const before = (await newest())?.n;
    expect(await purgeExpiredAuditDays(new Date("2026-03-03T03:00:00Z"))).toEqual([]);
    expect((await newest())?.n).toBe(before);
  });
});
