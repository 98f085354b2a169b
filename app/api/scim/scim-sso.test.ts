import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { useEnv } from "#test/env";
import { makeToken, scimCaller } from "#test/scim-client";
import { grantPermission, useTempDataDir } from "#test/upload-fixtures";
import { API_TOKENS } from "~/models/api-tokens.server";
import { AUDIT_LOG } from "~/models/audit.server";
import { findLatestOutboxMessage } from "~/models/auth-records.server";
import { findLocalUser } from "~/models/local-users.server";
import { findPermissionRecord } from "~/models/user-permissions.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";

/**
 * Users a directory creates over SCIM, and how they sign in: with single sign-on on (SSO_MODE saml or
 * cognito-federated) they sign in through it only, so no password account is made and no temporary-password e-mail
 * is sent; without it they get the temporary password as on /user/config. And a SCIM token without expiry works.
 */

const testDb = useTestDatabase();
useTempDataDir();

const ADMIN: AuthenticatedUser = {
  email: "sso.admin@example.com",
  name: "Admin",
  type: "SYSTEM ADMIN",
  sessionId: "s",
};
let scimToken = "";
const { scim, createUser } = scimCaller(() => scimToken);

beforeAll(async () => {
  await grantPermission(await testDb.db(), ADMIN.email, "SYSTEM ADMIN");
  scimToken = await makeToken(ADMIN, { kind: "scim", days: "never" });
});

describe("with single sign-on (SSO_MODE=saml)", () => {
  useEnv({
    SSO_MODE: "saml",
    SAML_IDP_ENTRY_POINT: "https://idp.example.com/sso",
    SAML_IDP_CERT: "idp-cert",
    SAML_SP_PRIVATE_KEY: "sp-key",
    SAML_SP_CERT: "sp-cert",
  });

  it("creates the user for single sign-on only: no password account, no temporary-password e-mail", async () => {
    const user = await createUser("sso.only@example.com", "Só SSO");
    expect(user).toMatchObject({
      userName: "sso.only@example.com",
      active: true,
      groups: [{ display: "USER BRONZE" }],
    });
    expect((await findPermissionRecord("sso.only@example.com"))?.type).toBe("USER BRONZE");
    expect(await findLocalUser("sso.only@example.com")).toBeNull();
    expect(await findLatestOutboxMessage("sso.only@example.com")).toBeNull();
    const entry = await (await testDb.db())
      .collection(AUDIT_LOG)
      .findOne({ event: "userCreated", "object.id": "sso.only@example.com" });
    expect(entry).toMatchObject({ outcome: "ok", details: { signIn: "sso" } });
  });

  it("is reached with a SCIM token without expiry", async () => {
    const stored = await (await testDb.db()).collection(API_TOKENS).findOne({ kind: "scim" });
    expect(stored?.expiresAt).toBeNull();
    const groups = await scim("/Groups?excludedAttributes=members");
    expect(groups.status).toBe(200);
  });
});

describe("without single sign-on (SSO_MODE=none)", () => {
  useEnv({ SSO_MODE: "none" });

  it("creates a password account and sends its temporary password, as /user/config does", async () => {
    await createUser("with.password@example.com", "Com senha");
    expect(await findLocalUser("with.password@example.com")).not.toBeNull();
    const mail = await findLatestOutboxMessage("with.password@example.com");
    expect(mail?.text).toContain("Senha temporária");
  });
});
