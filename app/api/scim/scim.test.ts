import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { makeToken, ORIGIN, PATCH_SCHEMA as PATCH, scimCaller, USER_SCHEMA } from "#test/scim-client";
import { grantPermission, useTempDataDir } from "#test/upload-fixtures";
import { API_TOKENS } from "~/models/api-tokens.server";
import { AUDIT_LOG } from "~/models/audit.server";
import { insertSession, SESSIONS } from "~/models/sessions.server";
import { findPermissionRecord } from "~/models/user-permissions.server";
import type { PermissionType } from "~/models/users.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { loader as apiLoader } from "~/routes/api.v1.$";

/**
 * /scim/v2 as Okta's and Microsoft Entra ID's provisioning drive it: create, find by userName, update, deactivate
 * (sessions and tokens end), reactivate, group membership as the permission type, delete; refusals as SCIM errors.
 */

const testDb = useTestDatabase();
useTempDataDir();

const ADMIN: AuthenticatedUser = { email: "sysadmin@example.com", name: "Admin", type: "SYSTEM ADMIN", sessionId: "s" };
let scimToken = "";
const { scim, createUser } = scimCaller(() => scimToken);

beforeAll(async () => {
  await grantPermission(await testDb.db(), ADMIN.email, "SYSTEM ADMIN");
  scimToken = await makeToken(ADMIN, { kind: "scim" });
});

describe("an Okta-style provisioning", () => {
  it("creates, finds by userName, refuses a duplicate, replaces and deactivates", async () => {
    const user = await createUser("okta.user@example.com", "Okta User");
    expect(user).toMatchObject({
      userName: "okta.user@example.com",
      active: true,
      groups: [{ display: "USER BRONZE" }],
    });

    const found = await scim(
      `/Users?filter=${encodeURIComponent('userName eq "Okta.User@example.com"')}&startIndex=1&count=100`,
    );
    expect(found.body).toMatchObject({ totalResults: 1, startIndex: 1, Resources: [{ id: user.id }] });
    const none = await scim(`/Users?filter=${encodeURIComponent('userName eq "nobody@example.com"')}`);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });

    const duplicate = await scim("/Users", {
      method: "POST",
      body: { schemas: [USER_SCHEMA], userName: "okta.user@example.com" },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ scimType: "uniqueness", status: "409" });

    const replaced = await scim(`/Users/${user.id}`, {
      method: "PUT",
      body: { schemas: [USER_SCHEMA], userName: "okta.user@example.com", displayName: "Okta Renamed", active: true },
    });
    expect(replaced.body).toMatchObject({ displayName: "Okta Renamed" });

    const off = await scim(`/Users/${user.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "replace", value: { active: false } }] },
    });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ active: false, groups: [] });
    expect((await findPermissionRecord("okta.user@example.com"))?.type).toBe("");

    const back = await scim(`/Users/${user.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "replace", value: { active: true } }] },
    });
    expect(back.body).toMatchObject({ active: true, groups: [{ display: "USER BRONZE" }] });

    const entries = await (await testDb.db())
      .collection(AUDIT_LOG)
      .find({ "object.id": "okta.user@example.com", event: { $in: ["userCreated", "userChanged"] } })
      .toArray();
    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(entries.every((e) => e.actor.email === ADMIN.email && String(e.actor.name).startsWith("SCIM"))).toBe(true);
    expect(entries.some((e) => String(e.details.via).startsWith("SCIM "))).toBe(true);
  });
});

describe("a Microsoft Entra ID-style provisioning", () => {
  it("applies Entra's PATCH forms: capitalised ops, string booleans, a path per attribute", async () => {
    const user = await createUser("entra.user@example.com");
    const renamed = await scim(`/Users/${user.id}`, {
      method: "PATCH",
      body: {
        schemas: [PATCH],
        Operations: [
          { op: "Replace", path: "displayName", value: "Entra Person" },
          { op: "Add", path: "name.formatted", value: "Entra Person" },
        ],
      },
    });
    expect(renamed.body).toMatchObject({ displayName: "Entra Person" });
    const off = await scim(`/Users/${user.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "Replace", path: "active", value: "False" }] },
    });
    expect(off.body).toMatchObject({ active: false });
  });

  it("ends the sessions and API tokens of a deactivated user at once", async () => {
    const user = await createUser("leaver@example.com");
    const record = await findPermissionRecord("leaver@example.com");
    const personal = await makeToken(
      { email: "leaver@example.com", name: "L", type: record?.type as PermissionType, sessionId: "s" },
      { scope: "read" },
    );
    await insertSession("leaver@example.com", { idleMinutes: 30, absoluteHours: 12 }, new Date());
    const call = (token: string) => {
      const request = new Request(`${ORIGIN}/api/v1/datasets`, { headers: { Authorization: `Bearer ${token}` } });
      return apiLoader({ request, params: { "*": "datasets" }, context: {} } as never);
    };
    expect((await call(personal)).status).toBe(200);
    await scim(`/Users/${user.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "Replace", path: "active", value: "False" }] },
    });
    expect(await (await testDb.db()).collection(SESSIONS).countDocuments({ email: "leaver@example.com" })).toBe(0);
    expect((await call(personal)).status).toBe(401);
    const kept = await (await testDb.db()).collection(API_TOKENS).findOne({ owner: "leaver@example.com" });
    expect(kept?.revokedAt).toBeInstanceOf(Date);
  });

  it("sets the permission type through group membership, and finds groups by displayName", async () => {
    const user = await createUser("mover@example.com");
    const groups = await scim(
      `/Groups?filter=${encodeURIComponent('displayName eq "USER GOLD"')}&excludedAttributes=members`,
    );
    expect(groups.body).toMatchObject({ totalResults: 1, Resources: [{ id: "user-gold", displayName: "USER GOLD" }] });
    expect(groups.body.Resources[0].members).toBeUndefined();

    const added = await scim("/Groups/user-gold", {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "Add", path: "members", value: [{ value: user.id }] }] },
    });
    expect(added.status).toBe(204);
    expect((await findPermissionRecord("mover@example.com"))?.type).toBe("USER GOLD");
    const gold = await scim("/Groups/user-gold");
    expect(gold.body.members.map((m: { value: string }) => m.value)).toContain(user.id);

    const removed = await scim("/Groups/user-gold", {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "Remove", path: `members[value eq "${user.id}"]` }] },
    });
    expect(removed.status).toBe(204);
    expect((await findPermissionRecord("mover@example.com"))?.type).toBe("");
  });
});

describe("what SCIM refuses", () => {
  it("answers SCIM errors for a bad token, a personal token, an unsupported filter and an administrator", async () => {
    const bad = await scim("/Users", { token: "jps_nope" });
    expect(bad.status).toBe(401);
    expect(bad.body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"]);
    const personal = await makeToken(ADMIN, { scope: "write" });
    expect((await scim("/Users", { token: personal })).status).toBe(401);
    const filter = await scim(`/Users?filter=${encodeURIComponent('title co "x"')}`);
    expect(filter.body).toMatchObject({ status: "400", scimType: "invalidFilter" });
    // SYSTEM ADMIN is not SCIM's: not listed, not found.
    const admin = await scim(`/Users?filter=${encodeURIComponent(`userName eq "${ADMIN.email}"`)}`);
    expect(admin.body.totalResults).toBe(0);
    expect((await scim("/Groups", { method: "POST", body: { displayName: "X" } })).status).toBe(403);
  });

  it("deletes a user, who is then not found", async () => {
    const user = await createUser("gone@example.com");
    await scim(`/Users/${user.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "replace", path: "active", value: false }] },
    });
    expect((await scim(`/Users/${user.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await scim(`/Users/${user.id}`)).status).toBe(404);
    expect(await findPermissionRecord("gone@example.com")).toBeNull();
  });

  it("describes itself: ServiceProviderConfig, ResourceTypes, Schemas", async () => {
    expect((await scim("/ServiceProviderConfig")).body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
    });
    expect((await scim("/ResourceTypes")).body.Resources.map((r: { id: string }) => r.id)).toEqual(["User", "Group"]);
    expect((await scim(`/Schemas/${USER_SCHEMA}`)).body).toMatchObject({ id: USER_SCHEMA });
  });
});
