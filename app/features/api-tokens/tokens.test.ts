import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { useEnv } from "#test/env";
import { API_TOKENS, insertApiToken } from "~/models/api-tokens.server";
import { AUDIT_LOG } from "~/models/audit.server";
import type { PermissionType } from "~/models/users.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
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
const page = (user: AuthenticatedUser, query = "") => loadTokensPage(user, new URL(`http://x/user/tokens${query}`));

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
    const refused = await act(gold, { intent: "create", kind: "scim", name: "Okta", days: "30" });
    expect(refused.init?.status).toBe(403);
    const admin = userOf("SYSTEM ADMIN");
    const made = await act(admin, { intent: "create", kind: "scim", name: "Okta", days: "30" });
    expect(made.data.secret).toMatch(/^jps_/);
    expect((await page(gold, "?scim=1")).rows.map((r) => r.name)).not.toContain("Okta");
    const listed = await page(admin, "?scim=1");
    expect(listed.scim).toBe(true);
    expect(listed.rows.map((r) => [r.name, r.scope])).toEqual([["Okta", "write"]]);
    expect((await page(admin)).rows.map((r) => r.name)).not.toContain("Okta");
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
