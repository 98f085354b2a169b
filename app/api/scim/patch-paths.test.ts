import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { makeToken, scimCaller } from "#test/scim-client";
import { grantPermission, useTempDataDir } from "#test/upload-fixtures";
import { AUDIT_LOG } from "~/models/audit.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";

/**
 * A SCIM PATCH reaches only the attributes the portal keeps (RFC 7644 §3.12: any other path is 400 invalidPath), with
 * and without `path`: no operation may write through `__proto__`, `constructor` or `prototype` into the process's
 * objects, and what is refused changes nothing.
 */

const testDb = useTestDatabase();
useTempDataDir();

const ADMIN: AuthenticatedUser = { email: "sysadmin@example.com", name: "Admin", type: "SYSTEM ADMIN", sessionId: "s" };
let token = "";
const { scim, createUser, patch } = scimCaller(() => token);
let userId = "";

beforeAll(async () => {
  await grantPermission(await testDb.db(), ADMIN.email, "SYSTEM ADMIN");
  token = await makeToken(ADMIN, { kind: "scim" });
  userId = (await createUser("target@example.com", "Alvo")).id;
  await createUser("other@example.com", "Outro");
});

const polluted = () => {
  const probe: Record<string, unknown> = {};
  return ["userName", "x", "members", "active"].filter((key) => probe[key] !== undefined);
};

afterEach(() => {
  // A failure above must not leak into the next case's assertions.
  for (const key of ["userName", "x", "members", "active"])
    delete (Object.prototype as unknown as Record<string, unknown>)[key];
});

/** The shapes that reached Object.prototype through scim-patch, for a resource whose attribute is `attribute`. */
const pollutingOperations = (attribute: string) => [
  { op: "add", path: `__proto__.${attribute}`, value: "gold@demo.local" },
  { op: "add", path: `constructor.prototype.${attribute}`, value: "gold@demo.local" },
  { op: "add", path: "constructor.prototype.x", value: "1" },
  { op: "add", path: `name.__proto__.${attribute}`, value: "gold@demo.local" },
  { op: "replace", value: { [`__proto__.${attribute}`]: "gold@demo.local" } },
  { op: "replace", value: { "constructor.prototype.x": "1" } },
  { op: "replace", value: JSON.parse(`{"__proto__": {"${attribute}": "gold@demo.local"}}`) },
  { op: "replace", value: { name: JSON.parse('{"__proto__": {"x": "1"}}') } },
];

describe("PATCH /Users/{id} with a path outside the allow-list", () => {
  it.each(pollutingOperations("userName"))("refuses %j with 400 invalidPath and changes nothing", async (operation) => {
    const before = await scim("/Users");
    const answer = await patch(`/Users/${userId}`, [operation]);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: "400", scimType: "invalidPath" });
    expect(polluted()).toEqual([]);
    expect(({} as Record<string, unknown>).userName).toBeUndefined();
    const after = await scim("/Users");
    expect(after.body.totalResults).toBe(before.body.totalResults);
    expect(after.body.totalResults).toBe(2);
    expect((await scim(`/Users/${userId}`)).body).toMatchObject({
      userName: "target@example.com",
      displayName: "Alvo",
    });
  });

  it.each([
    { op: "replace", path: "title", value: "Diretor" },
    { op: "add", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber", value: "1" },
    { op: "replace", path: "groups", value: [{ value: "user-gold" }] },
    { op: "replace", path: "name.nickName", value: "x" },
    { op: "replace", path: 'emails[type eq "work"].__proto__', value: "x" },
    { op: "replace", value: { active: false, title: "Diretor" } },
    { op: "replace", value: { emails: [{ value: "target@example.com", constructor: { prototype: { x: 1 } } }] } },
  ])(
    "refuses the attribute the portal does not keep %j (400 invalidPath), and applies none of the body",
    async (op) => {
      const answer = await patch(`/Users/${userId}`, [{ op: "replace", path: "displayName", value: "Mudou" }, op]);
      expect(answer.body).toMatchObject({ status: "400", scimType: "invalidPath" });
      expect((await scim(`/Users/${userId}`)).body).toMatchObject({ displayName: "Alvo", active: true });
    },
  );

  it("still applies every form the directories send for the attributes it keeps", async () => {
    const user = await createUser("forms@example.com", "Formas");
    const renamed = await patch(`/Users/${user.id}`, [
      { op: "Replace", path: "displayName", value: "Pessoa Nova" },
      { op: "replace", path: "name.givenName", value: "Pessoa" },
      { op: "replace", path: "name.familyName", value: "Nova" },
      { op: "Add", path: "name.formatted", value: "Pessoa Nova" },
      { op: "replace", path: 'emails[type eq "work"].value', value: "forms@example.com" },
      { op: "replace", path: "urn:ietf:params:scim:schemas:core:2.0:User:userName", value: "forms@example.com" },
      {
        op: "replace",
        value: { "name.givenName": "Pessoa", active: "True", emails: [{ value: "forms@example.com" }] },
      },
    ]);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ displayName: "Pessoa Nova", active: true });
    const off = await patch(`/Users/${user.id}`, [{ op: "replace", value: { active: false } }]);
    expect(off.body).toMatchObject({ active: false });
  });
});

describe("PATCH /Groups/{id} with a path outside the allow-list", () => {
  it.each([
    ...pollutingOperations("members"),
    { op: "add", path: "members.__proto__.x", value: "1" },
    { op: "add", path: "members[value eq 1].constructor", value: "1" },
    { op: "add", value: { members: [JSON.parse('{"value": "abc", "__proto__": {"x": 1}}')] } },
  ])("refuses %j with 400 invalidPath and changes nothing", async (operation) => {
    const before = await scim("/Users");
    const answer = await patch("/Groups/user-gold", [operation]);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: "400", scimType: "invalidPath" });
    expect(polluted()).toEqual([]);
    expect(({} as Record<string, unknown>).members).toBeUndefined();
    expect((await scim("/Users")).body.totalResults).toBe(before.body.totalResults);
  });

  it("still adds and removes members with and without a path", async () => {
    const user = await createUser("member@example.com");
    expect((await patch("/Groups/user-silver", [{ op: "add", value: { members: [{ value: user.id }] } }])).status).toBe(
      204,
    );
    expect((await scim(`/Users/${user.id}`)).body.groups).toMatchObject([{ display: "USER SILVER" }]);
    expect(
      (await patch("/Groups/user-silver", [{ op: "remove", path: `members[value eq "${user.id}"]` }])).status,
    ).toBe(204);
    expect((await scim(`/Users/${user.id}`)).body.groups).toEqual([]);
  });
});

describe("the audit trail of SCIM", () => {
  it("says through which token a user was created and deleted (details.via), as for a change", async () => {
    const user = await createUser("audited@example.com");
    expect((await scim(`/Users/${user.id}`, { method: "DELETE" })).status).toBe(204);
    const entries = await (await testDb.db())
      .collection(AUDIT_LOG)
      .find({ "object.id": "audited@example.com", event: { $in: ["userCreated", "userDeleted"] } })
      .toArray();
    expect(entries.map((e) => e.event).sort()).toEqual(["userCreated", "userDeleted"]);
    for (const entry of entries) expect(String(entry.details?.via)).toMatch(/^SCIM /);
  });
});
