import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { getArgs as get, postArgs as post } from "#test/requests";
import { resetConfigForTests } from "~/config.server";
import { messages } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { insertLocalUser } from "~/models/local-users.server";
import { insertPermissionRecord } from "~/models/user-permissions.server";
import type { PermissionType } from "~/models/users.server";
import { startSession } from "~/platform/auth/session.server";
import * as userConfig from "~/routes/user.config";
import * as userPermission from "~/routes/user.permission";
import { hashPassword } from "~/services/password-hash.server";

/**
 * The e-mail search of /user/config and /user/permission (held in the URL, case-insensitive, anywhere in the
 * address), and a creation that lands on the page where the new user stands, its row highlighted.
 */

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();

type ListData = {
  rows: Array<{ id: string; email: string }>;
  total: number;
  created?: number;
  page: number;
  search: string;
  searchError: string | null;
  newUserId?: string | null;
};

async function addUser(email: string, type: PermissionType | "") {
  await insertLocalUser({
    email,
    passwordHash: await hashPassword("Journey#2024"),
    mustChangePassword: false,
    createdAt: new Date(),
  });
  await insertPermissionRecord({ user: email, name: email.split("@")[0], type, stores: [], createdAt: new Date() });
}

async function cookieOf(email: string): Promise<string> {
  const { headers } = await startSession(email);
  return (headers.get("Set-Cookie") ?? "").split(";")[0];
}

function list(value: unknown): { status: number; data: ListData } {
  const v = value as { data: ListData; init?: { status?: number } };
  return { status: v.init?.status ?? 200, data: v.data };
}

let userAdmin: string;
let permissionAdmin: string;
// 45 users of the four tiers (three pages of 20), three of whom have "finance" in their address.
const TIERS: PermissionType[] = ["USER EXPLORER", "USER BRONZE", "USER SILVER", "USER GOLD"];

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db());
  for (let i = 0; i < 42; i++) await addUser(`user${String(i).padStart(2, "0")}@example.com`, TIERS[i % 4]);
  for (const email of ["ana.finance@example.com", "finance.bruno@example.com", "carla@finance.example.com"])
    await addUser(email, "USER SILVER");
  // Administrative and typeless accounts are never listed, search or not.
  await addUser("finance.admin@example.com", "SYSTEM ADMIN");
  await addUser("finance.none@example.com", "");
  await addUser("useradmin@example.com", "USER ADMIN");
  await addUser("permiss@example.com", "USER PERMISS");
  userAdmin = await cookieOf("useradmin@example.com");
  permissionAdmin = await cookieOf("permiss@example.com");
});

describe("searching the user lists by e-mail", () => {
  it("/user/config lists only the addresses containing the search, whatever its case, and still titles every user", async () => {
    const { status, data } = list(await userConfig.loader(get("/user/config?email=FINANCE", userAdmin)));
    expect(status).toBe(200);
    expect(data.rows.map((r) => r.email)).toEqual([
      "ana.finance@example.com",
      "carla@finance.example.com",
      "finance.bruno@example.com",
    ]);
    expect(data.total).toBe(3);
    expect(data.created).toBe(45);
    expect(data.search).toBe("FINANCE");
  });

  it("/user/permission narrows the same way, and pages within the matches", async () => {
    const { data } = list(
      await userPermission.loader(get("/user/permission?email=user1&pageSize=40", permissionAdmin)),
    );
    expect(data.rows.map((r) => r.email)).toEqual(Array.from({ length: 10 }, (_, i) => `user1${i}@example.com`));
    const second = list(await userPermission.loader(get("/user/permission?email=user&page=3", permissionAdmin))).data;
    expect(second.total).toBe(42);
    expect(second.page).toBe(3);
    expect(second.rows.map((r) => r.email)).toEqual(["user40@example.com", "user41@example.com"]);
  });

  it("matches the text literally: a dot is a dot and a pattern is no pattern", async () => {
    expect(
      list(await userConfig.loader(get("/user/config?email=a.finance", userAdmin))).data.rows.map((r) => r.email),
    ).toEqual(["ana.finance@example.com"]);
    expect(list(await userConfig.loader(get("/user/config?email=.*", userAdmin))).data.total).toBe(0);
    expect(
      list(await userConfig.loader(get(`/user/config?email=${encodeURIComponent("(")}`, userAdmin))).data.total,
    ).toBe(0);
  });

  it("refuses a search longer than an e-mail address with a message (400), showing the list unsearched", async () => {
    const { status, data } = list(await userConfig.loader(get(`/user/config?email=${"a".repeat(321)}`, userAdmin)));
    expect(status).toBe(400);
    expect(data.searchError).toBe(messages.userSearchTooLong(320));
    expect(data.total).toBe(45);
  });

  it("returns to the same search and page after a deletion", async () => {
    await addUser("finance.temp@example.com", "USER BRONZE");
    const response = await userConfig.action(
      post(
        "/user/config?email=finance&page=1&delete=finance.temp%40example.com",
        { intent: "delete", email: "finance.temp@example.com" },
        userAdmin,
      ),
    );
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).headers.get("Location")).toBe("/user/config?page=1&email=finance");
  });
});

describe("after creating a user", () => {
  it("the list opens on the new user's page with its row highlighted, whatever page or search was shown", async () => {
    const response = await userConfig.action(
      post("/user/config?email=finance&page=1&create=1", { intent: "create", email: "User30b@Example.com" }, userAdmin),
    );
    expect(response).toBeInstanceOf(Response);
    const location = (response as Response).headers.get("Location")!;
    // Sorted by e-mail, user30b comes after user00…user30 and the admins' "ana/carla/finance" addresses: the 35th row.
    expect(location).toBe("/user/config?page=2&novo=user30b%40example.com");
    const { data } = list(await userConfig.loader(get(location, userAdmin)));
    const created = data.rows.find((r) => r.email === "user30b@example.com");
    expect(created).toBeDefined();
    expect(data.newUserId).toBe(created!.id);
  });

  it("highlights nothing when `novo` names a user who is not on the page", async () => {
    const { data } = list(await userConfig.loader(get("/user/config?novo=user00%40example.com&page=2", userAdmin)));
    expect(data.newUserId).toBeNull();
  });
});
