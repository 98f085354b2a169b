import { beforeAll, describe, expect, it } from "vitest";
import { thrownResponse } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { userMaker } from "#test/users";
import { resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { AUDIT_LOG, type AuditEntry, verifyAuditChain } from "~/models/audit.server";
import { recordAccessRefused } from "~/platform/audit/record.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { startSession } from "~/platform/auth/session.server";
import { SCHEDULED_TASKS } from "~/scheduled-tasks.server";
import { runWithClientAddress } from "~/shared/client-address.server";

/**
 * Refusals of the route guard are aggregated per user, route and minute: the first of a minute is an entry of its
 * own, the rest are counted and written as one summary entry ("n more") once the minute is over, so one account
 * cannot flood the log and no refusal goes uncounted.
 */

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();
const makeUser = userMaker({ prefix: "recusa", name: "Recusado", passwordHash: () => "scrypt$unused" });

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db());
});

async function refusalsOf(email: string | null, routeId?: string): Promise<AuditEntry[]> {
  return (await testDb.db())
    .collection<AuditEntry>(AUDIT_LOG)
    .find(
      { event: "accessRefused", "actor.email": email, ...(routeId ? { "object.id": routeId } : {}) },
      { projection: { _id: 0 } },
    )
    .sort({ n: 1 })
    .toArray();
}

/** The refusals an entry stands for: itself, or the count of a summary. */
const refusalsCounted = (entries: AuditEntry[]) =>
  entries.reduce((sum, e) => sum + (typeof e.details.repeated === "number" ? e.details.repeated : 1), 0);

async function runSummaryTask(now: Date) {
  const task = SCHEDULED_TASKS.find((t) => t.name === "audit-refusal-summaries");
  expect(task?.everyMs).toBe(60_000);
  await task?.run(now);
}

describe("a flood of 403s by one signed-in user", () => {
  it("appends a bounded number of entries, and the summaries keep the count", async () => {
    const gold = await makeUser("USER GOLD");
    const { headers } = await startSession(gold);
    const cookie = (headers.get("Set-Cookie") ?? "").split(";")[0];
    const FLOOD = 40;
    for (let i = 0; i < FLOOD; i++) {
      const request = new Request("http://localhost:3000/user/config", { headers: { Cookie: cookie } });
      const response = await runWithClientAddress("203.0.113.9", () =>
        thrownResponse(requireRouteAccess("routes/user.config", request)),
      );
      expect(response.status).toBe(403);
    }
    // Within a minute (or across one boundary): the minute's first refusal, and at most one more minute's first
    // with the summary of the minute before it.
    expect((await refusalsOf(gold)).length).toBeLessThanOrEqual(3);
    await runSummaryTask(new Date(Date.now() + 2 * 60_000));
    const entries = await refusalsOf(gold);
    expect(entries.length).toBeLessThanOrEqual(4);
    expect(refusalsCounted(entries)).toBe(FLOOD);
    expect(entries[0]).toMatchObject({
      actor: { email: gold, type: "USER GOLD" },
      ip: "203.0.113.9",
      object: { kind: "screen", id: "routes/user.config", label: "/user/config" },
      outcome: "refused",
      details: { reason: "notAllowed" },
    });
    expect(await verifyAuditChain()).toMatchObject({ ok: true });
  });
});

describe("refusals on a pinned clock", () => {
  const actor = { email: "pinned@example.com", name: "Fixo", type: "USER BRONZE" };
  const plan = { routeId: "routes/ij.plan", path: "/ij/plan" };
  const config = { routeId: "routes/user.config", path: "/user/config" };
  const at = (time: string) => new Date(`2026-03-01T${time}Z`);

  it("writes one entry per user, route and minute, then one summary with the count of the rest", async () => {
    for (let i = 0; i < 100; i++) {
      await recordAccessRefused(actor, plan, "notAllowed", {}, at(`10:00:${String(i % 60).padStart(2, "0")}.5`));
    }
    await recordAccessRefused(actor, config, "notAllowed", {}, at("10:00:30"));
    await recordAccessRefused({ ...actor, email: "other@example.com" }, plan, "notAllowed", {}, at("10:00:31"));
    expect(await refusalsOf(actor.email, plan.routeId)).toHaveLength(1);
    expect(await refusalsOf(actor.email, config.routeId)).toHaveLength(1);
    expect(await refusalsOf("other@example.com")).toHaveLength(1);

    // The next minute's first refusal writes the summary of the minute before, then itself.
    await recordAccessRefused(actor, plan, "notAllowed", {}, at("10:01:05"));
    const entries = await refusalsOf(actor.email, plan.routeId);
    expect(entries).toHaveLength(3);
    expect(entries[1]).toMatchObject({
      actor: { email: actor.email, type: "USER BRONZE" },
      object: { kind: "screen", id: plan.routeId, label: plan.path },
      outcome: "refused",
      details: { reason: "notAllowed", repeated: 99, minute: "2026-03-01T10:00:00.000Z" },
    });
    expect(entries[2].details).toEqual({ reason: "notAllowed" });
    expect(refusalsCounted(entries)).toBe(101);

    // The task sums up what nobody's next refusal did: nothing for a minute with a single refusal.
    await runSummaryTask(at("10:05:00"));
    expect(refusalsCounted(await refusalsOf(actor.email))).toBe(102);
    expect(await refusalsOf(actor.email, plan.routeId)).toHaveLength(3);
    expect(await verifyAuditChain()).toMatchObject({ ok: true });
  });
});
