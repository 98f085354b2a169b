import { Collection } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries } from "#test/query-plans";
import { applyIndexes } from "~/models/all-indexes.server";
import {
  AUDIT_DAYS,
  AUDIT_GENESIS,
  AUDIT_LOG,
  type AuditEntry,
  type AuditInput,
  appendAuditEntry,
  auditHash,
  indexes as auditIndexes,
  forgetAuditHeads,
  listAuditPage,
  purgeAuditDaysBefore,
  seedAuditEntries,
  verifyAuditChain,
} from "~/models/audit.server";

/** The audit trail's chain: append, concurrent appends, no secrets, verification, retention and paging. */

const testDb = useTestDatabase();

beforeAll(async () => {
  await applyIndexes(await testDb.db(), auditIndexes);
});

beforeEach(async () => {
  const db = await testDb.db();
  await db.collection(AUDIT_LOG).deleteMany({});
  forgetAuditHeads();
  await db.collection(AUDIT_DAYS).deleteMany({});
});

const event = (n: number, extra: Partial<AuditInput> = {}): AuditInput => ({
  actor: { email: `user${n}@example.com`, name: `User ${n}`, type: "USER GOLD" },
  ip: "203.0.113.7",
  event: "signIn",
  object: { kind: "user", id: `user${n}@example.com` },
  outcome: "ok",
  details: { n },
  ...extra,
});

async function entries(): Promise<(AuditEntry & { _id: unknown })[]> {
  return (await testDb.db()).collection<AuditEntry & { _id: unknown }>(AUDIT_LOG).find().sort({ n: 1 }).toArray();
}

/** Three entries on 2026-03-01, two on 2026-03-02. */
async function twoDays() {
  for (let i = 1; i <= 3; i++) await appendAuditEntry(event(i), new Date(`2026-03-01T10:0${i}:00Z`));
  for (let i = 4; i <= 5; i++) await appendAuditEntry(event(i), new Date(`2026-03-02T10:0${i}:00Z`));
}

describe("appendAuditEntry", () => {
  it("numbers entries in the log and in the UTC day, and chains each to the one before", async () => {
    await twoDays();
    const all = await entries();
    expect(all.map((e) => [e.n, e.day, e.seq])).toEqual([
      [1, "2026-03-01", 1],
      [2, "2026-03-01", 2],
      [3, "2026-03-01", 3],
      [4, "2026-03-02", 1],
      [5, "2026-03-02", 2],
    ]);
    expect(all[0].prev).toBe(AUDIT_GENESIS);
    for (let i = 1; i < all.length; i++) expect(all[i].prev).toBe(all[i - 1].hash);
    for (const { _id, ...entry } of all) expect(auditHash(entry)).toBe(entry.hash);
    expect(all[3]).toMatchObject({
      actor: { email: "user4@example.com", name: "User 4", type: "USER GOLD" },
      ip: "203.0.113.7",
      event: "signIn",
      object: { kind: "user", id: "user4@example.com", label: null },
      outcome: "ok",
    });
    expect(await verifyAuditChain()).toMatchObject({
      ok: true,
      checked: 5,
      firstDay: "2026-03-01",
      lastDay: "2026-03-02",
    });
  });

  it("keeps one linear chain when many writers append at the same time", async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => appendAuditEntry(event(i))));
    const all = await entries();
    expect(all.map((e) => e.n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(all.map((e) => e.prev)).size).toBe(20);
    expect(await verifyAuditChain()).toMatchObject({ ok: true, checked: 20 });
  });

  it("takes this process's appends in turn: one insert each, none lost to a collision and retried", async () => {
    const inserts = vi.spyOn(Collection.prototype, "insertOne");
    try {
      await Promise.all(Array.from({ length: 20 }, (_, i) => appendAuditEntry(event(i))));
      const intoLog = inserts.mock.instances.filter((c) => (c as unknown as Collection).collectionName === "audit_log");
      expect(intoLog).toHaveLength(20);
    } finally {
      inserts.mockRestore();
    }
    expect(await verifyAuditChain()).toMatchObject({ ok: true, checked: 20 });
  });

  it("never keeps passwords, codes, tokens or session ids, and masks CPFs", async () => {
    const entry = await appendAuditEntry(
      event(1, {
        object: { kind: "user", id: "Funcionário 123.456.789-09" },
        details: {
          password: "Secret#2024",
          senha: "Outra#2024",
          code: "ABCDE12345",
          resetCode: "XYZ987",
          token: "eyJhbGciOi.payload.sig",
          idToken: "eyJ.id.token",
          sessionId: "q3V9cM1mJx0o8tW2Hc7Zb5yLrA4eNfGkU6sPdTiQvXw",
          cpf: "12345678909",
          nested: { accessToken: "abc", note: "CPF 987.654.321-00 no arquivo", list: ["111.222.333-44"] },
          rows: 12,
        },
      }),
    );
    const stored = JSON.stringify(await (await testDb.db()).collection(AUDIT_LOG).findOne({ n: entry.n }));
    for (const secret of [
      "Secret#2024",
      "Outra#2024",
      "ABCDE12345",
      "XYZ987",
      "eyJhbGciOi",
      "eyJ.id.token",
      "q3V9cM1mJx0o8tW2Hc7Zb5yLrA4eNfGkU6sPdTiQvXw",
      "12345678909",
      "123.456.789-09",
      "987.654.321-00",
      "111.222.333-44",
      '"abc"',
    ]) {
      expect(stored).not.toContain(secret);
    }
    expect(entry.details).toMatchObject({
      cpf: "***.456.789-**",
      nested: { note: "CPF ***.654.321-** no arquivo", list: ["***.222.333-**"] },
      rows: 12,
    });
    expect(entry.object?.id).toBe("Funcionário ***.456.789-**");
    const heavy = await appendAuditEntry(
      event(2, { details: { rows: Array.from({ length: 40 }, () => "x".repeat(400)) } }),
    );
    expect(JSON.stringify(heavy.details).length).toBeLessThan(8_000);
    expect(await verifyAuditChain()).toMatchObject({ ok: true });
  });
});

describe("the canonical form and what an entry keeps", () => {
  it("hashes an entry as the database stores it: a lone surrogate (a header cell &#xD800;) verifies", async () => {
    const lone = "Cabe\uD800alho \uDC00 inválido";
    const entry = await appendAuditEntry(
      event(1, {
        actor: { email: "user1@example.com", name: "Nome \uD800", type: "USER GOLD" },
        object: { kind: "file", id: "folha\uDBFF.xlsx", label: "rótulo \uD800" },
        dataset: "hr\uD800",
        details: { message: lone, nested: { list: [lone] }, "chave\uD800": 1 },
      }),
    );
    await appendAuditEntry(event(2));
    expect(await verifyAuditChain()).toMatchObject({ ok: true, checked: 2 });
    const stored = await (await testDb.db()).collection<AuditEntry>(AUDIT_LOG).findOne({ n: entry.n });
    expect(stored?.details.message).toBe("Cabe\uFFFDalho \uFFFD inválido");
    // What the caller gets back is what was stored.
    expect(entry.details.message).toBe("Cabe\uFFFDalho \uFFFD inválido");
    // An entry that fails with a U+FFFD in it (as one written before this form would) says so.
    await (await testDb.db()).collection(AUDIT_LOG).updateOne({ n: entry.n }, { $set: { "details.n": 2 } });
    expect((await verifyAuditChain()).problem?.message).toBe(
      `entry ${entry.day}#1 (n 1) was altered; it holds U+FFFD (see docs/operations.md)`,
    );
  });

  it("masks a CPF in any of its shapes inside a text", async () => {
    const entry = await appendAuditEntry(
      event(1, {
        object: { kind: "file", id: "folha_52998224725.xlsx" },
        details: {
          file: "folha_52998224725.xlsx",
          dashed: "linha 4: 529982247-25 recusado",
          spaced: "CPF 529 982 247 25",
          dotted: "529.982.247-25",
          plain: "52998224725",
        },
      }),
    );
    const stored = JSON.stringify(await (await testDb.db()).collection(AUDIT_LOG).findOne({ n: entry.n }));
    for (const shape of ["52998224725", "529982247-25", "529 982 247 25", "529.982.247-25"]) {
      expect(stored).not.toContain(shape);
    }
    expect(entry.object?.id).toBe("folha_***.982.247-**.xlsx");
    expect(entry.details).toEqual({
      file: "folha_***.982.247-**.xlsx",
      dashed: "linha 4: ***.982.247-** recusado",
      spaced: "CPF ***.982.247-**",
      dotted: "***.982.247-**",
      plain: "***.982.247-**",
    });
    // Longer numbers are not CPFs.
    expect((await appendAuditEntry(event(2, { details: { id: "1234567890123" } }))).details.id).toBe("1234567890123");
  });

  it("keeps a database id whole even when eleven of its digits read as a CPF", async () => {
    // "55526085667" inside this id passes the CPF check digits.
    const id = "6b0a6f55526085667c1cf739";
    const entry = await appendAuditEntry(event(1, { object: { kind: "file", id }, details: { fileId: id } }));
    expect(entry.object?.id).toBe(id);
    expect(entry.details.fileId).toBe(id);
  });

  it("removes API keys, pwd, credentials and SAML responses by their key, whatever the case", async () => {
    const entry = await appendAuditEntry(
      event(1, {
        details: {
          apiKey: "ak-1",
          API_KEY: "ak-2",
          "x-api-key": "ak-3",
          pwd: "pw-1",
          PWD: "pw-2",
          credential: "cr-1",
          awsCredentials: "cr-2",
          SAMLResponse: "PHNhbWxwOlJlc3BvbnNl",
          samlresponse: "PHNhbWw",
          nested: { ApiKey: "ak-4", Credential: { id: "cr-3" } },
          rows: 3,
        },
      }),
    );
    const stored = JSON.stringify(await (await testDb.db()).collection(AUDIT_LOG).findOne({ n: entry.n }));
    for (const secret of ["ak-1", "ak-2", "ak-3", "ak-4", "pw-1", "pw-2", "cr-1", "cr-2", "cr-3", "PHNhbWw"]) {
      expect(stored).not.toContain(secret);
    }
    expect(entry.details).toMatchObject({
      apiKey: "[removido]",
      API_KEY: "[removido]",
      "x-api-key": "[removido]",
      pwd: "[removido]",
      PWD: "[removido]",
      credential: "[removido]",
      awsCredentials: "[removido]",
      SAMLResponse: "[removido]",
      samlresponse: "[removido]",
      nested: { ApiKey: "[removido]", Credential: "[removido]" },
      rows: 3,
    });
  });
});

describe("verifyAuditChain", () => {
  it("reports every problem it finds, not only the first", async () => {
    for (let i = 1; i <= 8; i++) await appendAuditEntry(event(i), new Date(`2026-03-01T10:0${i}:00Z`));
    const db = await testDb.db();
    await db.collection(AUDIT_LOG).updateOne({ n: 2 }, { $set: { "actor.email": "x@example.com" } });
    await db.collection(AUDIT_LOG).deleteOne({ n: 5 });
    await db.collection(AUDIT_LOG).updateOne({ n: 7 }, { $set: { outcome: "failed" } });
    const result = await verifyAuditChain();
    expect(result).toMatchObject({ ok: false, checked: 5 });
    expect(result.ok ? [] : result.problems.map((p) => [p.kind, p.n])).toEqual([
      ["altered", 2],
      ["removed", 5],
      ["altered", 7],
    ]);
  });

  it("names an altered entry", async () => {
    await twoDays();
    await (await testDb.db()).collection(AUDIT_LOG).updateOne({ n: 2 }, { $set: { "actor.email": "x@example.com" } });
    const result = await verifyAuditChain();
    expect(result).toMatchObject({ ok: false, problem: { kind: "altered", day: "2026-03-01", seq: 2, n: 2 } });
  });

  it("names an altered entry whose hash was recomputed, from the next entry's link", async () => {
    await twoDays();
    const db = await testDb.db();
    const { _id, ...second } = (await entries())[1];
    const forged = { ...second, outcome: "refused" as const };
    await db.collection(AUDIT_LOG).updateOne({ n: 2 }, { $set: { outcome: "refused", hash: auditHash(forged) } });
    expect(await verifyAuditChain()).toMatchObject({
      ok: false,
      problem: { kind: "altered", day: "2026-03-01", seq: 2 },
    });
  });

  it("names a removed entry, inside a day and at the end of one", async () => {
    await twoDays();
    const db = await testDb.db();
    await db.collection(AUDIT_LOG).deleteOne({ n: 2 });
    expect(await verifyAuditChain()).toMatchObject({
      ok: false,
      problem: { kind: "removed", day: "2026-03-01", seq: 2, n: 2 },
    });
    await db.collection(AUDIT_LOG).deleteMany({});
    forgetAuditHeads();
    forgetAuditHeads();
    await twoDays();
    await db.collection(AUDIT_LOG).deleteOne({ n: 3 });
    expect(await verifyAuditChain()).toMatchObject({
      ok: false,
      problem: { kind: "removed", day: "2026-03-01", seq: 3, n: 3 },
    });
  });

  it("names an inserted entry", async () => {
    await twoDays();
    const db = await testDb.db();
    // Whoever inserts must first drop the unique indexes that refuse a second entry with the same number.
    await db.collection(AUDIT_LOG).dropIndexes();
    const { _id, hash, ...second } = (await entries())[1];
    const fake = { ...second, details: { n: 99 }, actor: { email: "intruso@example.com", name: null, type: null } };
    await db.collection(AUDIT_LOG).insertOne({ ...fake, hash: auditHash(fake) });
    expect(await verifyAuditChain()).toMatchObject({
      ok: false,
      problem: { kind: "inserted", day: "2026-03-01", seq: 2, n: 2 },
    });
    await db.collection(AUDIT_LOG).deleteMany({});
    forgetAuditHeads();
    forgetAuditHeads();
    await applyIndexes(db, auditIndexes);
  });

  it("verifies a range of days, chaining to the day before it", async () => {
    await twoDays();
    expect(await verifyAuditChain({ from: "2026-03-02", to: "2026-03-02" })).toMatchObject({
      ok: true,
      checked: 2,
      firstDay: "2026-03-02",
    });
    expect(await verifyAuditChain({ from: "2026-04-01" })).toMatchObject({ ok: true, checked: 0 });
  });
});

describe("purgeAuditDaysBefore (retention)", () => {
  it("removes whole days before the cutoff, keeps their final hash, and what remains still verifies and grows", async () => {
    await twoDays();
    await appendAuditEntry(event(6), new Date("2026-03-03T09:00:00Z"));
    const finalOfFirstDay = (await entries())[2];
    expect(await purgeAuditDaysBefore("2026-03-02", new Date("2026-03-10T00:00:00Z"))).toEqual({
      days: ["2026-03-01"],
      entries: 3,
    });
    const left = await entries();
    expect(left.map((e) => e.n)).toEqual([4, 5, 6]);
    const kept = await (await testDb.db()).collection(AUDIT_DAYS).findOne({ _id: "2026-03-01" as never });
    expect(kept).toMatchObject({ finalN: 3, finalSeq: 3, finalHash: finalOfFirstDay.hash });
    expect(await verifyAuditChain()).toMatchObject({ ok: true, checked: 3 });
    // Removing a kept day (not by retention) breaks the chain at once.
    await (await testDb.db()).collection(AUDIT_LOG).deleteMany({ day: "2026-03-02" });
    expect(await verifyAuditChain()).toMatchObject({ ok: false, problem: { kind: "removed" } });
  });

  it("continues the chain from the kept hash when every day was removed", async () => {
    await twoDays();
    await purgeAuditDaysBefore("2026-03-05");
    expect(await entries()).toEqual([]);
    const next = await appendAuditEntry(event(9), new Date("2026-03-06T00:00:00Z"));
    expect(next).toMatchObject({ n: 6, day: "2026-03-06", seq: 1 });
    expect(await verifyAuditChain()).toMatchObject({ ok: true, checked: 1 });
  });
});

describe("listAuditPage", () => {
  it("pages newest first by seek and filters through indexes, without counting the log", async () => {
    const db = await testDb.db();
    await seedAuditEntries(1_500, { db, end: new Date("2026-03-31T00:00:00Z"), days: 30, batchSize: 500 });
    await appendAuditEntry(event(1, { event: "accessRefused", outcome: "refused", dataset: "hr" }));
    const first = await expectIndexedQueries(db, () => listAuditPage({}, {}, 50));
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0].n).toBe(1_501);
    expect(first).toMatchObject({ hasOlder: true, hasNewer: false });
    const second = await expectIndexedQueries(db, () => listAuditPage({}, { before: first.entries[49].n }, 50));
    expect(second.entries[0].n).toBe(first.entries[49].n - 1);
    const back = await listAuditPage({}, { after: second.entries[0].n }, 50);
    expect(back.entries.map((e) => e.n)).toEqual(first.entries.map((e) => e.n));

    const refused = await expectIndexedQueries(db, () =>
      listAuditPage({ actorEmail: "USER1@example.com", outcome: "refused" }, {}, 50),
    );
    expect(refused.entries.map((e) => e.event)).toEqual(["accessRefused"]);
    const byDataset = await expectIndexedQueries(db, () => listAuditPage({ dataset: "forecast" }, {}, 50));
    expect(byDataset.entries.every((e) => e.dataset === "forecast")).toBe(true);
    const period = await expectIndexedQueries(db, () =>
      listAuditPage({ from: new Date("2026-03-10T00:00:00Z"), to: new Date("2026-03-11T00:00:00Z") }, {}, 500),
    );
    expect(period.entries.length).toBeGreaterThan(0);
    expect(period.hasOlder).toBe(false);
    for (const e of period.entries) {
      expect(e.at.getTime()).toBeGreaterThanOrEqual(Date.parse("2026-03-10T00:00:00Z"));
      expect(e.at.getTime()).toBeLessThan(Date.parse("2026-03-11T00:00:00Z"));
    }
    expect(await verifyAuditChain()).toMatchObject({ ok: true, checked: 1_501 });
  });
});
