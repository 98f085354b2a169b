import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { type DataAnswer, dataAnswer, thrownResponse as thrown } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { pageGet as get, formPost as post } from "#test/requests";
import { userMaker } from "#test/users";
import { resetConfigForTests } from "~/config.server";
import { messages } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { startSession } from "~/platform/auth/session.server";
import * as login from "~/routes/_index";
import * as ijSplat from "~/routes/ij.$";
import * as logoutRoute from "~/routes/logout";
import * as recovery from "~/routes/recovery.$code";
import * as userConfig from "~/routes/user.config";
import * as userPermission from "~/routes/user.permission";
import { readToastFromResponse } from "~/shared/toast.server";

/**
 * The access screens' loaders and actions in-process (the browser tests cover the same flows end to end):
 * the status codes and Portuguese messages a caller gets, and that nothing bad reaches the back end.
 */

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();
const ORIGIN = "http://localhost:3000";
const PASSWORD = "Journey#2024";

const makeUser = userMaker({ prefix: "screen", name: "Screen", password: PASSWORD });

async function sessionCookie(email: string): Promise<string> {
  const { headers } = await startSession(email);
  return (headers.get("Set-Cookie") ?? "").split(";")[0];
}

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, params, context: { clientIp: "10.1.1.1" } }) as unknown as ActionFunctionArgs & LoaderFunctionArgs;

/** The body and status of a `data()` answer (single fetch), or the Response of a redirect. */
function answer(value: unknown): DataAnswer<Record<string, unknown>> {
  return value instanceof Response ? { status: value.status, body: {} } : dataAnswer(value);
}

/**
 * What a refused form shows, from the action's `submission.reply()`: which form answers (intent), its form-level
 * notice, each field's messages, and the values the form is refilled with.
 */
function refusal(a: { status: number; body: Record<string, unknown> }) {
  const result = a.body.result as SubmissionResult<string[]>;
  const { "": notice, ...fields } = result.error ?? {};
  return { status: a.status, intent: a.body.intent, notice: notice ?? [], fields, values: result.initialValue ?? {} };
}

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db());
});

describe("/ (login)", () => {
  it("refuses a POST from another origin with 403 before reading the form", async () => {
    const response = await thrown(
      login.action(
        args(post("/?index", { intent: "signIn", email: "a@b.c", password: "x" }, { origin: "https://evil.example" })),
      ),
    );
    expect(response.status).toBe(403);
  });

  it("answers 400 with the spec's texts for empty fields and wrong credentials", async () => {
    const email = await makeUser("USER GOLD");
    let a = answer(await login.action(args(post("/?index", { intent: "signIn", email, password: "" }))));
    expect(refusal(a)).toMatchObject({
      status: 400,
      intent: "signIn",
      notice: [messages.loginRequired],
      fields: {},
      values: { email },
    });
    a = answer(await login.action(args(post("/?index", { intent: "signIn", email: "", password: "x" }))));
    expect(refusal(a)).toMatchObject({ status: 400, notice: [messages.loginRequired] });
    a = answer(await login.action(args(post("/?index", { intent: "signIn", email: " ", password: " " }))));
    expect(refusal(a)).toMatchObject({ status: 400, notice: [messages.loginRequired] });
    a = answer(await login.action(args(post("/?index", { intent: "signIn", email, password: "Wrong#2024" }))));
    expect(refusal(a)).toMatchObject({
      status: 400,
      intent: "signIn",
      notice: [messages.incorrectCredentials],
      fields: {},
      values: { email },
    });
    // The refilled form never carries the password back.
    expect(refusal(a).values).not.toHaveProperty("password");
    expect(JSON.stringify(a.body)).not.toContain("Wrong#2024");
  });

  it("answers an unreadable or forged form with 400 and the invalid-form notice, never a 500", async () => {
    const forged: Array<Record<string, string>> = [
      // conform's reserved fields hold JSON
      { intent: "signIn", email: "a@b.c", password: "x", __intent__: "{not json" },
      { intent: "signIn", email: "a@b.c", password: "x", __state__: "[" },
      { intent: "signIn", email: "a@b.c".repeat(100), password: "x" },
    ];
    for (const fields of forged) {
      const a = answer(await login.action(args(post("/?index", fields))));
      expect(refusal(a), JSON.stringify(fields).slice(0, 60)).toMatchObject({
        status: 400,
        intent: "signIn",
        notice: [messages.invalidForm],
      });
    }
    // A repeated field (an array where text belongs) is as unreadable, on every form of the screen.
    const repeated = new Request(`${ORIGIN}/?index`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
      body: "intent=signIn&email=a%40b.c&email=c%40d.e&password=x",
    });
    expect(refusal(answer(await login.action(args(repeated))))).toMatchObject({
      status: 400,
      notice: [messages.invalidForm],
    });
    const forgot = new Request(`${ORIGIN}/?index&forgot=1`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
      body: "intent=forgot&email=a%40b.c&email=c%40d.e",
    });
    expect(refusal(answer(await login.action(args(forgot))))).toMatchObject({
      status: 400,
      intent: "forgot",
      fields: { email: [messages.invalidForm] },
    });
  });

  it("signs in with a redirect to the landing page and a session cookie; CONTATE SEU ADMIN for an empty type", async () => {
    const bronze = await makeUser("USER BRONZE");
    const response = (await login.action(
      args(post("/?index", { intent: "signIn", email: bronze, password: PASSWORD })),
    )) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/captura/manual");
    expect(response.headers.get("Set-Cookie")).toMatch(/^__session=/);

    const none = await makeUser("");
    const a = answer(await login.action(args(post("/?index", { intent: "signIn", email: none, password: PASSWORD }))));
    expect(refusal(a)).toMatchObject({
      status: 403,
      intent: "signIn",
      notice: [messages.contactAdmin],
      values: { email: none },
    });
  });

  it("sends a signed-in visitor of / to the landing page, and reads ?expired=1 and ?forgot=1 otherwise", async () => {
    const cookie = await sessionCookie(await makeUser("USER PERMISS"));
    const response = await thrown(login.loader(args(get("/", cookie))));
    expect(response.headers.get("Location")).toBe("/user/permission");
    const a = answer(await login.loader(args(get("/?expired=1&forgot=1"))));
    expect(a.body).toMatchObject({ expired: true, forgot: true, sso: null });
  });

  it("first access: the challenge step, the mismatch and policy messages (400), then success", async () => {
    const email = await makeUser("USER SILVER", { mustChangePassword: true });
    const step = answer(await login.action(args(post("/?index", { intent: "signIn", email, password: PASSWORD }))));
    expect(step.body).toMatchObject({ intent: "newPassword", step: "form", email });
    const challenge = String(step.body.challenge);

    let a = answer(
      await login.action(
        args(
          post("/?index", {
            intent: "newPassword",
            email,
            challenge,
            password: "Novo#2024x",
            confirmPassword: "Novo#2024y",
          }),
        ),
      ),
    );
    // Still the first-access form, with its hidden values, and the message under the confirmation.
    expect(a.body).toMatchObject({ intent: "newPassword", step: "form", email, challenge });
    expect(refusal(a)).toMatchObject({
      status: 400,
      notice: [],
      fields: { confirmPassword: [messages.passwordMismatch] },
    });
    expect(refusal(a).values).not.toHaveProperty("password");
    expect(refusal(a).values).not.toHaveProperty("confirmPassword");
    a = answer(
      await login.action(
        args(
          post("/?index", {
            intent: "newPassword",
            email,
            challenge,
            password: "novo#semmaiuscula1",
            confirmPassword: "novo#semmaiuscula1",
          }),
        ),
      ),
    );
    expect(refusal(a)).toMatchObject({
      status: 400,
      fields: { password: ["A senha deve ter pelo menos 1 letra maiúscula."] },
    });
    a = answer(
      await login.action(
        args(post("/?index", { intent: "newPassword", email, challenge, password: "", confirmPassword: "" })),
      ),
    );
    expect(refusal(a)).toMatchObject({
      status: 400,
      fields: { password: ["Informe a nova senha."], confirmPassword: ["Confirme a nova senha."] },
    });
    // A challenge the provider refuses (expired, forged): back to the login, the e-mail refilled, nothing secret echoed.
    a = answer(
      await login.action(
        args(
          post("/?index", {
            intent: "newPassword",
            email,
            challenge: `${challenge}x`,
            password: "Novo#2024x",
            confirmPassword: "Novo#2024x",
          }),
        ),
      ),
    );
    expect(refusal(a)).toMatchObject({
      status: 400,
      intent: "signIn",
      notice: [messages.firstAccessExpired],
      values: { email },
    });
    expect(Object.keys(refusal(a).values).sort()).toEqual(["email", "intent"]);
    // A tampered hidden field sends the user back to the login with the invalid-form notice.
    a = answer(
      await login.action(
        args(
          post("/?index", {
            intent: "newPassword",
            email: "x".repeat(400),
            challenge,
            password: "Novo#2024x",
            confirmPassword: "Novo#2024x",
          }),
        ),
      ),
    );
    expect(refusal(a)).toMatchObject({ status: 400, intent: "signIn", notice: [messages.invalidForm] });

    a = answer(
      await login.action(
        args(
          post("/?index", {
            intent: "newPassword",
            email,
            challenge,
            password: "Novo#2024x",
            confirmPassword: "Novo#2024x",
          }),
        ),
      ),
    );
    expect(a).toEqual({ status: 200, body: { intent: "newPassword", step: "done" } });
  });

  it("forgot password: the e-mail is required (400); any well-formed address gets the same success", async () => {
    let a = answer(await login.action(args(post("/?index&forgot=1", { intent: "forgot", email: " " }))));
    expect(a.body.sent).toBe(false);
    expect(refusal(a)).toMatchObject({
      status: 400,
      intent: "forgot",
      notice: [],
      fields: { email: [messages.emailRequired] },
    });
    a = answer(await login.action(args(post("/?index&forgot=1", { intent: "forgot", email: "not-an-email" }))));
    expect(refusal(a)).toMatchObject({
      status: 400,
      fields: { email: [messages.invalidEmail] },
      values: { email: "not-an-email" },
    });
    // Longer than the service accepts (254): the same message.
    a = answer(
      await login.action(args(post("/?index&forgot=1", { intent: "forgot", email: `${"l".repeat(250)}@example.com` }))),
    );
    expect(refusal(a)).toMatchObject({ status: 400, fields: { email: [messages.invalidEmail] } });
    a = answer(await login.action(args(post("/?index&forgot=1", { intent: "forgot", email: "unknown@example.com" }))));
    expect(a).toEqual({ status: 200, body: { intent: "forgot", sent: true } });
  });
});

describe("/recovery/{code}", () => {
  it("prefills only a plausible code and reports field errors and the provider's message with 400", async () => {
    expect(answer(await recovery.loader(args(get("/recovery/123456"), { code: "123456" }))).body).toEqual({
      code: "123456",
    });
    expect(answer(await recovery.loader(args(get("/recovery/x"), { code: "<script>" }))).body).toEqual({ code: "" });

    let a = answer(
      await recovery.action(args(post("/recovery/1", { email: "", code: "", password: "a", confirmPassword: "b" }))),
    );
    const shown = refusal(a);
    expect(shown.status).toBe(400);
    expect(shown.notice).toEqual([]);
    expect(shown.fields.email).toEqual([messages.emailRequired]);
    expect(shown.fields.code).toEqual([messages.codeRequired]);
    expect(shown.fields.confirmPassword).toEqual([messages.passwordMismatch]);
    expect(shown.values).not.toHaveProperty("password");

    const email = await makeUser("USER GOLD");
    a = answer(
      await recovery.action(
        args(post("/recovery/1", { email, code: "000000", password: "Outra#2024", confirmPassword: "Outra#2024" })),
      ),
    );
    // The provider's refusal: a form-level notice; the e-mail and the code are refilled, the passwords are not.
    expect(refusal(a)).toMatchObject({ status: 400, fields: {}, values: { email, code: "000000" } });
    expect(refusal(a).notice).toHaveLength(1);
    expect(refusal(a).notice[0].length).toBeGreaterThan(0);
    expect(JSON.stringify(a.body)).not.toContain("Outra#2024");
  });
});

describe("/logout", () => {
  it("GET has no side effect; POST ends the session and returns to /", async () => {
    const cookie = await sessionCookie(await makeUser("USER GOLD"));
    expect(await logoutRoute.loader(args(get("/logout", cookie)))).toBeNull();
    const response = (await logoutRoute.action(args(post("/logout", {}, { cookie })))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect((await thrown(logoutRoute.loader(args(get("/logout", cookie))))).headers.get("Location")).toBe("/");
  });
});

describe("/user/config and /user/permission", () => {
  it("creates with a toast, refuses a duplicate with OPS! (400), deletes with a toast", async () => {
    const cookie = await sessionCookie(await makeUser("USER ADMIN"));
    const email = `created${Date.now()}@example.com`;
    const created = (await userConfig.action(
      args(post("/user/config?create=1", { intent: "create", email }, { cookie })),
    )) as Response;
    // The list opens where the new user stands, its row highlighted.
    expect(new URL(created.headers.get("Location")!, "http://x").searchParams.get("novo")).toBe(email);
    expect((await readToastFromResponse(created))?.description).toBe(messages.saved);

    const duplicate = answer(
      await userConfig.action(
        args(post("/user/config?create=1", { intent: "create", email: email.toUpperCase() }, { cookie })),
      ),
    );
    expect(refusal(duplicate)).toMatchObject({
      status: 400,
      intent: "create",
      notice: [messages.userExists],
      fields: {},
      values: { email: email.toUpperCase() },
    });
    const empty = answer(
      await userConfig.action(args(post("/user/config?create=1", { intent: "create", email: "" }, { cookie }))),
    );
    expect(refusal(empty)).toMatchObject({
      status: 400,
      intent: "create",
      notice: [],
      fields: { email: [messages.emailRequired] },
    });
    const malformed = answer(
      await userConfig.action(
        args(post("/user/config?create=1", { intent: "create", email: "sem-arroba" }, { cookie })),
      ),
    );
    expect(refusal(malformed)).toMatchObject({ status: 400, fields: { email: [messages.invalidEmail] } });

    const listing = answer(
      await userConfig.loader(args(get(`/user/config?delete=${encodeURIComponent(email)}`, cookie))),
    );
    expect(listing.body.deleteEmail).toBe(email);
    expect(
      (listing.body.rows as Array<{ email: string; createdAt: string }>).find((r) => r.email === email)?.createdAt,
    ).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);

    const deleted = (await userConfig.action(
      args(post("/user/config", { intent: "delete", email }, { cookie })),
    )) as Response;
    expect((await readToastFromResponse(deleted))?.description).toBe(messages.userDeleted);
    const again = answer(await userConfig.action(args(post("/user/config", { intent: "delete", email }, { cookie }))));
    expect(refusal(again)).toMatchObject({ status: 400, intent: "delete", notice: [messages.userNotFound] });
    expect(again.body.email).toBe(email);
    const unknown = answer(
      await userConfig.action(args(post("/user/config", { intent: "rename", email }, { cookie }))),
    );
    expect(refusal(unknown)).toMatchObject({ status: 400, intent: "unknown", notice: [messages.invalidForm] });
  });

  it("shows ' - ' for a user without a creation date", async () => {
    const db = await testDb.db();
    await db
      .collection(USER_PERMISSIONS)
      .insertOne({ user: "nodate@example.com", name: "No date", type: "USER SILVER", stores: [] });
    const cookie = await sessionCookie(await makeUser("USER ADMIN"));
    const listing = answer(await userConfig.loader(args(get("/user/config", cookie))));
    expect(
      (listing.body.rows as Array<{ email: string; createdAt: string }>).find((r) => r.email === "nodate@example.com")
        ?.createdAt,
    ).toBe(" - ");
  });

  it("accepts only the four tiers and known, non-administrative users", async () => {
    const cookie = await sessionCookie(await makeUser("USER PERMISS"));
    const target = await makeUser("USER EXPLORER");
    const admin = await makeUser("SYSTEM ADMIN");
    const set = (user: string, tier: string) =>
      userPermission.action(args(post("/user/permission", { intent: "setTier", user, tier }, { cookie })));

    expect(refusal(answer(await set(target, "SYSTEM ADMIN")))).toMatchObject({
      status: 400,
      notice: [messages.invalidTier],
    });
    expect(refusal(answer(await set("ghost@example.com", "USER GOLD")))).toMatchObject({
      status: 400,
      notice: [messages.userNotFound],
    });
    expect(refusal(answer(await set(admin, "USER GOLD")))).toMatchObject({
      status: 400,
      notice: [messages.userProtected],
    });
    expect(refusal(answer(await set("", "USER GOLD")))).toMatchObject({ status: 400, notice: [messages.invalidForm] });
    const saved = (await set(target, "USER GOLD")) as Response;
    expect((await readToastFromResponse(saved))?.description).toBe(messages.permissionAssigned);

    const pending = answer(
      await userPermission.loader(
        args(get(`/user/permission?user=${encodeURIComponent(target)}&tier=USER%20SILVER`, cookie)),
      ),
    );
    expect(pending.body.pending).toEqual({ email: target, tier: "USER SILVER" });
    const bogus = answer(
      await userPermission.loader(args(get(`/user/permission?user=${encodeURIComponent(target)}&tier=ROOT`, cookie))),
    );
    expect(bogus.body.pending).toBeNull();
  });

  it("pages both lists on the server: 20 by default or 40, the total counted, bad parameters fall back", async () => {
    for (let i = 0; i < 45; i++) await makeUser(i % 2 === 0 ? "USER BRONZE" : "");
    const adminCookie = await sessionCookie(await makeUser("USER ADMIN"));
    const configPage = async (search: string) =>
      answer(await userConfig.loader(args(get(`/user/config${search}`, adminCookie))));
    const emails = (a: { body: Record<string, unknown> }) =>
      (a.body.rows as Array<{ email: string }>).map((r) => r.email);

    const wide = await configPage("?pageSize=40");
    const total = wide.body.total as number;
    expect(total).toBeGreaterThanOrEqual(23);
    const db = await testDb.db();
    expect(total).toBe(
      await db
        .collection(USER_PERMISSIONS)
        .countDocuments({ type: { $in: ["USER EXPLORER", "USER BRONZE", "USER SILVER", "USER GOLD"] } }),
    );
    expect(wide.body).toMatchObject({ page: 1, pageSize: 40, rowCount: total, pageSizes: [20, 40] });

    const first = await configPage("");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 20, total });
    expect(emails(first)).toHaveLength(20);
    const second = await configPage("?page=2");
    expect(second.body).toMatchObject({ page: 2, pageSize: 20, total });
    // Page 2 continues where page 1 stopped, in the order of the user e-mails.
    expect([...emails(first), ...emails(second)].slice(0, 40)).toEqual(emails(wide));
    expect(emails(second)[0] > emails(first)[19]).toBe(true);

    for (const bad of [
      "?page=abc",
      "?page=0&pageSize=30",
      "?page=-2&pageSize=x",
      "?page=1.5",
      "?page=99999999999999",
    ]) {
      const fallback = await configPage(bad);
      expect(fallback.status, bad).toBe(200);
      expect(fallback.body, bad).toMatchObject({ page: 1, pageSize: 20, total });
      expect(emails(fallback), bad).toEqual(emails(first));
    }
    // A page past the end shows the last one.
    const lastPage = Math.ceil(total / 20);
    expect((await configPage("?page=500")).body).toMatchObject({ page: lastPage, total });

    // The delete dialog opens for a listed user of another page, not for an administrator.
    const onPageTwo = emails(second)[0];
    expect((await configPage(`?delete=${encodeURIComponent(onPageTwo)}`)).body.deleteEmail).toBe(onPageTwo);
    const admin = await makeUser("SYSTEM ADMIN");
    expect((await configPage(`?delete=${encodeURIComponent(admin)}`)).body.deleteEmail).toBeNull();

    // The permission grid lists the four tiers only (spec 000 §6), paged the same way.
    const permissCookie = await sessionCookie(await makeUser("USER PERMISS"));
    const gridPage = async (search: string) =>
      answer(await userPermission.loader(args(get(`/user/permission${search}`, permissCookie))));
    const grid = await gridPage("");
    const gridTotal = grid.body.total as number;
    expect(gridTotal).toBe(
      await db
        .collection(USER_PERMISSIONS)
        .countDocuments({ type: { $in: ["USER EXPLORER", "USER BRONZE", "USER SILVER", "USER GOLD"] } }),
    );
    expect(emails(grid)).toHaveLength(20);
    const gridTwo = await gridPage("?page=2&pageSize=20");
    expect(gridTwo.body).toMatchObject({ page: 2, pageSize: 20, total: gridTotal });
    expect([...emails(grid), ...emails(gridTwo)]).toEqual(emails(await gridPage("?pageSize=40")));
    expect((await gridPage("?page=x&pageSize=41")).body).toMatchObject({ page: 1, pageSize: 20 });
    const target = emails(gridTwo)[3];
    const pending = await gridPage(`?page=1&user=${encodeURIComponent(target)}&tier=USER%20GOLD`);
    expect(pending.body.pending).toEqual({ email: target, tier: "USER GOLD" });
    expect((await gridPage(`?user=${encodeURIComponent(admin)}&tier=USER%20GOLD`)).body.pending).toBeNull();
  });

  it("returns to the page the change was made on", async () => {
    const adminCookie = await sessionCookie(await makeUser("USER ADMIN"));
    const email = `keeps-page${Date.now()}@example.com`;
    const created = (await userConfig.action(
      args(post("/user/config?page=2&pageSize=40&create=1", { intent: "create", email }, { cookie: adminCookie })),
    )) as Response;
    // A creation opens the page where the new user stands (the page size kept), not the page it was made on.
    const landing = new URL(created.headers.get("Location")!, "http://x");
    expect(landing.pathname).toBe("/user/config");
    expect(landing.searchParams.get("pageSize")).toBe("40");
    expect(landing.searchParams.get("novo")).toBe(email);
    const deleted = (await userConfig.action(
      args(
        post(
          `/user/config?page=3&delete=${encodeURIComponent(email)}`,
          { intent: "delete", email },
          { cookie: adminCookie },
        ),
      ),
    )) as Response;
    expect(deleted.headers.get("Location")).toBe("/user/config?page=3");
    // Bad paging parameters are not echoed back.
    const again = await makeUser("USER GOLD");
    const cleaned = (await userConfig.action(
      args(post("/user/config?page=%3Cx%3E&pageSize=7", { intent: "delete", email: again }, { cookie: adminCookie })),
    )) as Response;
    expect(cleaned.headers.get("Location")).toBe("/user/config?page=1&pageSize=20");

    const permissCookie = await sessionCookie(await makeUser("USER PERMISS"));
    const target = await makeUser("USER EXPLORER");
    const saved = (await userPermission.action(
      args(
        post(
          "/user/permission?page=2&pageSize=20",
          { intent: "setTier", user: target, tier: "USER BRONZE" },
          { cookie: permissCookie },
        ),
      ),
    )) as Response;
    expect(saved.headers.get("Location")).toBe("/user/permission?page=2&pageSize=20");
    expect((await readToastFromResponse(saved))?.description).toBe(messages.permissionAssigned);
  });

  it("refuses the other types with 403", async () => {
    const cookie = await sessionCookie(await makeUser("USER GOLD"));
    expect((await thrown(userConfig.loader(args(get("/user/config", cookie))))).status).toBe(403);
    expect(
      (await thrown(userPermission.action(args(post("/user/permission", { intent: "setTier" }, { cookie }))))).status,
    ).toBe(403);
  });
});

describe("splat guards", () => {
  it("answer 404 to any signed-in type, and redirect anonymous visitors", async () => {
    const gold = await sessionCookie(await makeUser("USER GOLD"));
    const bronze = await sessionCookie(await makeUser("USER BRONZE"));
    expect((await thrown(ijSplat.loader(args(get("/ij/nao-existe", gold))))).status).toBe(404);
    expect((await thrown(ijSplat.loader(args(get("/ij/nao-existe", bronze))))).status).toBe(404);
    expect((await thrown(ijSplat.loader(args(get("/ij/nao-existe"))))).headers.get("Location")).toBe(
      "/?expired=1&redirectTo=%2Fij%2Fnao-existe",
    );
  });
});
