import net from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type DataAnswer, dataAnswer } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { getArgs as get, postArgs as post } from "#test/requests";
import { userMaker } from "#test/users";
import { resetConfigForTests } from "~/config.server";
import { createUser, deleteUser, signInWithPassword } from "~/features/access/accounts.server";
import { messages } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { LOCAL_USERS, USER_PERMISSIONS } from "~/models/users.server";
import { startSession } from "~/platform/auth/session.server";
import * as userConfig from "~/routes/user.config";
import { readLatestMail } from "~/services/mail.server";

/**
 * User creation is all or nothing with the local provider: when the temporary password cannot be e-mailed,
 * neither the credentials nor the permission record stay, the admin reads why, and a retry works. Deletion
 * from /user/config reaches only the four tiers that screen lists.
 */

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();

/** An SMTP server that greets and then refuses every recipient (550), like a relay that will not take the mail. */
async function startRefusingSmtp() {
  const server = net.createServer((socket) => {
    let buffer = "";
    socket.write("220 refusing.smtp ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let eol = buffer.indexOf("\r\n"); eol >= 0; eol = buffer.indexOf("\r\n")) {
        const verb = buffer.slice(0, 4).toUpperCase();
        buffer = buffer.slice(eol + 2);
        if (verb === "EHLO" || verb === "HELO") socket.write("250 refusing.smtp\r\n");
        else if (verb === "RCPT") socket.write("550 5.1.1 Mailbox unavailable\r\n");
        else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 OK\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let smtp: Awaited<ReturnType<typeof startRefusingSmtp>>;
let warn: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db());
  smtp = await startRefusingSmtp();
});
afterAll(async () => {
  await smtp.close();
});
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  warn.mockRestore();
  useOutbox();
});

function useRefusingSmtp() {
  process.env.MAIL = "smtp";
  process.env.SMTP_URL = smtp.url;
  resetConfigForTests();
}
function useOutbox() {
  delete process.env.MAIL;
  delete process.env.SMTP_URL;
  resetConfigForTests();
}

async function stored(email: string) {
  const db = await testDb.db();
  return {
    credentials: await db.collection(LOCAL_USERS).countDocuments({ email }),
    records: await db.collection(USER_PERMISSIONS).countDocuments({ user: email }),
  };
}

const makeUser = userMaker({ prefix: "admin-screen", name: "User", password: "Journey#2024" });

async function adminCookie(): Promise<string> {
  const { headers } = await startSession(await makeUser("USER ADMIN"));
  return (headers.get("Set-Cookie") ?? "").split(";")[0];
}

/** The status and body of a `data()` answer; a Response (redirect) is returned as is. */
const answer = (value: unknown): DataAnswer | Response => (value instanceof Response ? value : dataAnswer(value));

describe("creating a user when the temporary password cannot be e-mailed", () => {
  it("keeps neither credentials nor a permission record, and a retry creates the user", async () => {
    useRefusingSmtp();
    expect(await createUser("sem.email@example.com", "admin@example.com")).toEqual({
      kind: "failed",
      message: messages.createUserMailFailed,
    });
    expect(await stored("sem.email@example.com")).toEqual({ credentials: 0, records: 0 });
    const line = JSON.parse(String(warn.mock.calls.at(-1)?.[0]));
    expect(line).toMatchObject({ msg: "accounts.createUser.failed", reason: "mailFailed" });

    // Not "Usuário já cadastrado.": nothing is left over from the failed attempt.
    useOutbox();
    expect(await createUser("sem.email@example.com", "admin@example.com")).toEqual({
      kind: "created",
      email: "sem.email@example.com",
    });
    expect(await stored("sem.email@example.com")).toEqual({ credentials: 1, records: 1 });
    const temporary = /Senha temporária: (\S+)/.exec((await readLatestMail("sem.email@example.com"))?.text ?? "")?.[1];
    expect((await signInWithPassword({ email: "sem.email@example.com", password: temporary ?? "" })).kind).toBe(
      "newPasswordRequired",
    );
  });

  it("/user/config answers OPS! with the reason (503), lists nothing new, and accepts the retry", async () => {
    const cookie = await adminCookie();
    const total = async () =>
      (answer(await userConfig.loader(get("/user/config", cookie))) as { body: { total: number } }).body.total;
    const before = await total();

    useRefusingSmtp();
    // The create dialog shows the reason at form level (under "OPS!") and keeps the e-mail typed.
    expect(
      answer(
        await userConfig.action(
          post("/user/config?create=1", { intent: "create", email: "Falhou@Example.com" }, cookie),
        ),
      ),
    ).toMatchObject({
      status: 503,
      body: {
        intent: "create",
        result: { error: { "": [messages.createUserMailFailed] }, initialValue: { email: "Falhou@Example.com" } },
      },
    });
    expect(await total()).toBe(before);
    expect(await stored("falhou@example.com")).toEqual({ credentials: 0, records: 0 });

    useOutbox();
    const retry = answer(
      await userConfig.action(post("/user/config?create=1", { intent: "create", email: "Falhou@Example.com" }, cookie)),
    );
    expect(retry).toBeInstanceOf(Response);
    expect((retry as Response).headers.get("Location")).toBe("/user/config?novo=falhou%40example.com");
    expect(await total()).toBe(before + 1);
  });
});

describe("deleting from /user/config", () => {
  it("reaches only the four tiers: a user without a type is not found and stays", async () => {
    const cookie = await adminCookie();
    const untyped = await makeUser("");
    expect(await deleteUser(untyped)).toEqual({ kind: "notFound" });
    expect(
      answer(await userConfig.action(post("/user/config", { intent: "delete", email: untyped }, cookie))),
    ).toMatchObject({
      status: 400,
      body: { intent: "delete", result: { error: { "": [messages.userNotFound] } }, email: untyped },
    });
    expect(await stored(untyped)).toEqual({ credentials: 1, records: 1 });

    const db = await testDb.db();
    await db.collection(USER_PERMISSIONS).updateOne({ user: untyped }, { $unset: { type: "" } });
    expect(await deleteUser(untyped)).toEqual({ kind: "notFound" });
    expect(await stored(untyped)).toEqual({ credentials: 1, records: 1 });

    for (const tier of ["USER EXPLORER", "USER BRONZE", "USER SILVER", "USER GOLD"] as const) {
      const email = await makeUser(tier);
      expect(await deleteUser(email)).toEqual({ kind: "deleted" });
      expect(await stored(email)).toEqual({ credentials: 0, records: 0 });
    }
  });
});
