import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { useEnv } from "#test/env";
import { API_TOKENS, insertApiToken } from "~/models/api-tokens.server";
import { AUDIT_LOG } from "~/models/audit.server";
import type { PermissionType } from "~/models/users.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { tokenTexts } from "./texts";
import { loadTokensPage, MAX_LIVE_TOKENS, TOKEN_PAGE_SIZE, tokensAction } from "./tokens.server";

/** /user/tokens: each user's own tokens, SYSTEM ADMIN everyone's; revoking is the owner's or SYSTEM ADMIN's. */

const testDb = useTestDatabase();
let n = 0;
const userOf = (type: PermissionType): AuthenticatedUser => {
  const email = `tokens${++n}@example.com`;
  return { email, name: email, type, sessionId: "s" };
};
const post = (fields: Record<string, string>) =>
  new Request("http://localhost:3000/user/tokens", { method: "POST", body: new URLSearchParams(fields) });
type Answer = { init: { status?: number } | null; data: Record<string, string> };
const act = async (user: AuthenticatedUser, fields: Record<string, string>) =>
  (await tokensAction(user, post(fields))) as unknown as Answer;
const create = (user: AuthenticatedUser, name = "ERP") =>
  act(user, { intent: "create", name, days: "", scope: "read" });
const page = (user: AuthenticatedUser, query = "") =>
  loadTokensPage(user, new URL(`http://x/user/tokens${query}`), "https://portal.example.com/scim/v2");

describe("/user/tokens", () => {
  it("lists only the user's own tokens, without the secret, with a default expiry of 90 days", async () => {
    const bronze = userOf("USER BRONZE");
    const other = userOf("USER GOLD");
    const made = await create(bronze);
    await create(other);
    const mine = await page(bronze, "?todos=1");
    expect(mine.all).toBe(false);
    expect(mine.rows.map((r) => r.owner)).toEqual([bronze.email]);
    expect(JSON.stringify(mine)).not.toContain(made.data.secret);
    const stored = await (await testDb.db()).collection(API_TOKENS).findOne({ owner: bronze.email });
    const days = (stored?.expiresAt.getTime() - stored?.createdAt.getTime()) / 86_400_000;
    expect(days).toBe(90);
  });

  it("lets SYSTEM ADMIN see and revoke everyone's, and no one else revoke another's", async () => {
    const owner = userOf("USER SILVER");
    await create(owner, "Data warehouse");
    const id = (await page(owner)).rows[0].id;
    const intruder = userOf("USER GOLD");
    const refused = await act(intruder, { intent: "revoke", id });
    expect(refused.init?.status).toBe(403);
    const admin = userOf("SYSTEM ADMIN");
    const all = await page(admin, "?todos=1");
    expect(all.all).toBe(true);
    expect(all.rows.some((r) => r.id === id)).toBe(true);
    const revoked = await act(admin, { intent: "revoke", id });
    expect(revoked.data.message).toBe("Token revogado: Data warehouse.");
    expect((await page(owner)).rows[0].state).toBe("revoked");
    expect((await act(admin, { intent: "revoke", id })).init?.status).toBe(409);
    const entry = await (await testDb.db()).collection(AUDIT_LOG).findOne({ event: "tokenRevoked", "object.id": id });
    expect(entry?.actor.email).toBe(admin.email);
  });

  it("pages on the server, 20 a page, a page past the end showing the last", async () => {
    const user = userOf("SYSTEM ADMIN");
    // Past the live limit: expired ones stay listed.
    for (let i = 0; i < 21; i++)
      await insertApiToken(
        {
          kind: "personal",
          owner: user.email,
          name: `t${i}`,
          scope: "read",
          expiresAt: new Date(1),
          createdBy: user.email,
        },
        new Date(1_000_000 + i),
      );
    const first = await page(user);
    expect(first.rows).toHaveLength(TOKEN_PAGE_SIZE);
    expect(first.rows[0].name).toBe("t20");
    const past = await page(user, "?page=9");
    expect(past.page).toBe(2);
    expect(past.rows.map((r) => r.name)).toEqual(["t0"]);
    expect(past.pageCount).toBe(2);
  });

  it(`refuses a live token past ${MAX_LIVE_TOKENS}`, async () => {
    const user = userOf("USER GOLD");
    for (let i = 0; i < MAX_LIVE_TOKENS; i++) expect((await create(user, `t${i}`)).data).toHaveProperty("secret");
    const refused = await create(user, "one more");
    expect(refused.init?.status).toBe(409);
    expect(refused.data.error).toMatch(/Limite de 20 tokens/);
  });
});

describe("SCIM tokens", () => {
  it("are SYSTEM ADMIN's to make and see, on ?scim=1, always read-write", async () => {
    const gold = userOf("USER GOLD");
    const refused = await act(gold, { intent: "create", kind: "scim", name: "Okta", days: "90" });
    expect(refused.init?.status).toBe(403);
    const admin = userOf("SYSTEM ADMIN");
    const made = await act(admin, { intent: "create", kind: "scim", name: "Okta", days: "90" });
    expect(made.data.secret).toMatch(/^jps_/);
    expect((await page(gold, "?scim=1")).rows.map((r) => r.name)).not.toContain("Okta");
    const listed = await page(admin, "?scim=1");
    expect(listed.scim).toBe(true);
    expect(listed.scimBaseUrl).toBe("https://portal.example.com/scim/v2");
    expect((await page(gold, "?scim=1")).scimBaseUrl).toBe("");
    expect(listed.rows.map((r) => [r.name, r.scope])).toEqual([["Okta", "write"]]);
    expect((await page(admin)).rows.map((r) => r.name)).not.toContain("Okta");
  });
});

describe("a SCIM token's life", () => {
  const scim = (user: AuthenticatedUser, days: string, name = "Diretório") =>
    act(user, { intent: "create", kind: "scim", name, days });
  const storedLife = async (name: string) => {
    const stored = await (await testDb.db()).collection(API_TOKENS).findOne({ kind: "scim", name });
    return stored?.expiresAt === null
      ? "never"
      : (stored?.expiresAt.getTime() - stored?.createdAt.getTime()) / 86_400_000;
  };

  it("is 90 days unless SYSTEM ADMIN chooses 180, 365 days or none", async () => {
    const admin = userOf("SYSTEM ADMIN");
    for (const [days, name] of [
      ["", "Okta padrão"],
      ["180", "Okta 180"],
      ["365", "Okta 365"],
      ["never", "Entra sem expiração"],
    ]) {
      const made = await scim(admin, days, name);
      expect(made.data.secret).toMatch(/^jps_/);
    }
    expect(await storedLife("Okta padrão")).toBe(90);
    expect(await storedLife("Okta 180")).toBe(180);
    expect(await storedLife("Okta 365")).toBe(365);
    expect(await storedLife("Entra sem expiração")).toBe("never");
    const row = (await page(admin, "?scim=1")).rows.find((r) => r.name === "Entra sem expiração");
    expect(row).toMatchObject({ expiresAt: tokenTexts.noExpiry, state: "live" });
    const entry = await (await testDb.db())
      .collection(AUDIT_LOG)
      .findOne({ event: "tokenCreated", "object.label": "Entra sem expiração" });
    expect(entry?.details).toMatchObject({ kind: "scim", days: "never", expiresAt: null });
  });

  it("refuses any other life, and a token without expiry to anyone but a SCIM token of SYSTEM ADMIN", async () => {
    const admin = userOf("SYSTEM ADMIN");
    const gold = userOf("USER GOLD");
    const count = async () => (await testDb.db()).collection(API_TOKENS).countDocuments({});
    const before = await count();
    const odd = await scim(admin, "30");
    expect(odd.init?.status).toBe(400);
    expect(odd.data.error).toBe(tokenTexts.errors.scimDays);
    const personalNever = await act(admin, { intent: "create", name: "ERP", days: "never", scope: "read" });
    expect(personalNever.init?.status).toBe(400);
    expect(personalNever.data.error).toBe(tokenTexts.errors.days);
    expect((await act(gold, { intent: "create", name: "ERP", days: "never", scope: "read" })).init?.status).toBe(400);
    expect((await scim(gold, "never")).init?.status).toBe(403);
    expect(await count()).toBe(before);
  });
});

describe("/user/tokens with API_TOKENS=off", () => {
  useEnv({ API_TOKENS: "off" });
  it("creates none and says why", async () => {
    const user = userOf("SYSTEM ADMIN");
    const refused = await create(user);
    expect(refused.init?.status).toBe(403);
    expect((await page(user)).enabled).toBe(false);
  });
});
