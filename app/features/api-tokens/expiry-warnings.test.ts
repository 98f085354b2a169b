import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { grantPermission } from "#test/upload-fixtures";
import { API_TOKENS, insertApiToken, type TokenKind } from "~/models/api-tokens.server";
import { NOTICE_MAIL, NOTICES } from "~/models/notices.server";
import { runDueTasks, SCHEDULED_TASKS } from "~/scheduled-tasks.server";
import { sendTokenExpiryWarnings, TOKEN_EXPIRY_NOTICE } from "./expiry-warnings.server";
import { tokenTexts } from "./texts";

/**
 * The warnings before a token expires, on a fake clock (each run is given its `now`): 14 and 3 days before, each once
 * per token however often and by however many processes the check runs; a personal token's owner, every SYSTEM ADMIN
 * for a SCIM token; a notice and its e-mail.
 */

const testDb = useTestDatabase();
const DAY = 86_400_000;
const T0 = new Date("2027-01-01T09:00:00Z");
const at = (days: number, hours = 0) => new Date(T0.getTime() + days * DAY + hours * 3_600_000);

const OWNER = "dono.token@example.com";
const ADMINS = ["admin.um@example.com", "admin.dois@example.com"];
const GOLD = "gold@example.com";

const daily = SCHEDULED_TASKS.filter((t) => t.name === "token-expiry-warnings");

beforeAll(async () => {
  const db = await testDb.db();
  for (const admin of ADMINS) await grantPermission(db, admin, "SYSTEM ADMIN");
  await grantPermission(db, OWNER, "USER GOLD");
  await grantPermission(db, GOLD, "USER GOLD");
});

async function token(kind: TokenKind, name: string, lifeDays: number | null, createdAt = T0) {
  const { record } = await insertApiToken(
    {
      kind,
      owner: kind === "personal" ? OWNER : null,
      name,
      scope: kind === "scim" ? "write" : "read",
      expiresAt: lifeDays === null ? null : new Date(createdAt.getTime() + lifeDays * DAY),
      createdBy: kind === "personal" ? OWNER : ADMINS[0],
    },
    createdAt,
  );
  return record;
}

async function warningsAbout(name: string) {
  const db = await testDb.db();
  const notices = await db
    .collection(NOTICES)
    .find({ kind: TOKEN_EXPIRY_NOTICE, title: { $regex: ` ${name} expira` } })
    .sort({ created_at: 1 })
    .toArray();
  return notices.map((n) => ({ to: n.to, title: n.title, link: n.link }));
}

describe("token expiry warnings", () => {
  it("tell a personal token's owner 14 and 3 days before it expires, once each, by notice and e-mail", async () => {
    await token("personal", "ERP", 90);
    // 15 days before: nothing yet.
    expect(await sendTokenExpiryWarnings(at(75))).toBe(0);
    // 14 days before (the daily check runs an hour later): one warning, to the owner only.
    expect(await sendTokenExpiryWarnings(at(76, 1))).toBe(1);
    expect(await sendTokenExpiryWarnings(at(76, 2))).toBe(0);
    expect(await sendTokenExpiryWarnings(at(80))).toBe(0);
    expect(await warningsAbout("ERP")).toEqual([
      { to: OWNER, title: tokenTexts.expiry.title("personal", "ERP", 14), link: "/user/tokens" },
    ]);
    // 3 days before: the second and last.
    expect(await sendTokenExpiryWarnings(at(87, 1))).toBe(1);
    expect(await sendTokenExpiryWarnings(at(88))).toBe(0);
    expect(await sendTokenExpiryWarnings(at(91))).toBe(0);
    const warnings = await warningsAbout("ERP");
    expect(warnings.map((w) => [w.to, w.title])).toEqual([
      [OWNER, tokenTexts.expiry.title("personal", "ERP", 14)],
      [OWNER, tokenTexts.expiry.title("personal", "ERP", 3)],
    ]);
    const mails = await (await testDb.db()).collection(NOTICE_MAIL).find({ kind: TOKEN_EXPIRY_NOTICE }).toArray();
    expect(mails.filter((m) => String(m.title).includes(" ERP ")).map((m) => m.to)).toEqual([OWNER, OWNER]);
  });

  it("tell every SYSTEM ADMIN of a SCIM token, and link to the SCIM tokens", async () => {
    await token("scim", "Okta", 180);
    expect(await sendTokenExpiryWarnings(at(166, 1))).toBe(ADMINS.length);
    const warnings = await warningsAbout("Okta");
    expect(warnings.map((w) => w.to).sort()).toEqual([...ADMINS].sort());
    expect(warnings.every((w) => w.link === "/user/tokens?scim=1")).toBe(true);
    expect(warnings.some((w) => w.to === GOLD)).toBe(false);
  });

  it("send nothing for a revoked token, one without expiry, or one that has expired", async () => {
    const revoked = await token("personal", "Revogado", 20);
    await (await testDb.db())
      .collection(API_TOKENS)
      .updateOne({ _id: revoked._id }, { $set: { revokedAt: at(1), revokedBy: OWNER } });
    await token("scim", "Eterno", null);
    await token("personal", "Vencido", 5);
    expect(await sendTokenExpiryWarnings(at(10))).toBe(0);
    for (const name of ["Revogado", "Eterno", "Vencido"]) expect(await warningsAbout(name)).toEqual([]);
  });

  it("skip a warning the token never lived past, and one a stopped check missed for the nearer one", async () => {
    // A 10-day token is never 14 days from its end: only the 3-day warning.
    await token("personal", "Curto", 10, at(200));
    expect(await sendTokenExpiryWarnings(at(200, 1))).toBe(0);
    expect(await sendTokenExpiryWarnings(at(207, 1))).toBe(1);
    // The check did not run for 12 days: first seen 2 days before the end, it sends the 3-day warning alone.
    await token("personal", "Esquecido", 60, at(300));
    expect(await sendTokenExpiryWarnings(at(358))).toBe(1);
    expect(await sendTokenExpiryWarnings(at(359))).toBe(0);
    expect((await warningsAbout("Curto")).map((w) => w.title)).toEqual([
      tokenTexts.expiry.title("personal", "Curto", 3),
    ]);
    expect((await warningsAbout("Esquecido")).map((w) => w.title)).toEqual([
      tokenTexts.expiry.title("personal", "Esquecido", 2),
    ]);
  });

  it("send each warning once when several containers run the check at the same moment", async () => {
    await token("scim", "Entra", 90, at(400));
    // Each container's clock a few milliseconds apart.
    const runs = await Promise.all(
      [1, 2, 3, 4].map((ms) => sendTokenExpiryWarnings(new Date(at(476, 1).getTime() + ms))),
    );
    expect(runs.reduce((a, b) => a + b, 0)).toBe(ADMINS.length);
    expect(await warningsAbout("Entra")).toHaveLength(ADMINS.length);
  });

  it("is a daily scheduled task, run by the worker on each day's clock", async () => {
    expect(daily.map((t) => t.everyMs)).toEqual([DAY]);
    await token("personal", "Diário", 30, at(500));
    for (let day = 500; day <= 531; day++) await runDueTasks(at(day, 6), daily);
    expect((await warningsAbout("Diário")).map((w) => w.title)).toEqual([
      tokenTexts.expiry.title("personal", "Diário", 14),
      tokenTexts.expiry.title("personal", "Diário", 3),
    ]);
  });
});
