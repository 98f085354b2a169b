import { describe, expect, it } from "vitest";
import { dataAnswer, thrownResponse as thrown } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { swapEnv } from "#test/env";
import { getArgs } from "#test/requests";
import { userMaker } from "#test/users";
import { AUDIT_LOG } from "~/models/audit.server";
import { MAIL_OUTBOX } from "~/models/auth-records.server";
import { startSession } from "~/platform/auth/session.server";
import * as outboxRoute from "~/routes/user.emails";
import { sendMail } from "~/services/mail.server";
import { linksOf, type OutboxData } from "./outbox.server";
import { outboxTexts } from "./texts";

/** /user/emails: the outbox as a page, SYSTEM ADMIN's, only while mail goes to the outbox. */

const testDb = useTestDatabase();
const makeUser = userMaker({ prefix: "outbox", name: "Caixa", password: "Journey#2024" });

async function cookieOf(email: string): Promise<string> {
  const { headers } = await startSession(email);
  return (headers.get("Set-Cookie") ?? "").split(";")[0];
}
const load = async (path: string, cookie: string) =>
  dataAnswer<OutboxData>(await outboxRoute.loader(getArgs(path, cookie)));

describe("/user/emails", () => {
  it("lists the kept messages newest first, paged on the server, narrowed to a recipient", async () => {
    await (await testDb.db()).collection(MAIL_OUTBOX).deleteMany({});
    for (let i = 0; i < 25; i++)
      await sendMail({
        to: i % 5 === 0 ? "ana@example.com" : "bia@example.com",
        subject: `Aviso ${i}`,
        text: `n ${i}`,
      });
    const admin = await cookieOf(await makeUser("SYSTEM ADMIN"));
    const first = await load("/user/emails", admin);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 25, page: 1, pageSize: 20 });
    expect(first.body.rows[0].subject).toBe("Aviso 24");
    expect(first.body.rows).toHaveLength(20);
    expect((await load("/user/emails?page=2", admin)).body.rows.map((r) => r.subject)).toEqual([
      "Aviso 4",
      "Aviso 3",
      "Aviso 2",
      "Aviso 1",
      "Aviso 0",
    ]);
    const ana = await load("/user/emails?para=ANA%40example.com", admin);
    expect(ana.body.rows.map((r) => r.subject)).toEqual(["Aviso 20", "Aviso 15", "Aviso 10", "Aviso 5", "Aviso 0"]);
    expect(ana.body.to).toBe("ana@example.com");
    const bad = await load("/user/emails?para=%7B%22%24ne%22%3A1%7D", admin);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(outboxTexts.invalidFilter);
    expect(bad.body.total).toBe(25);
  });

  it("opens a message with its text and links (the portal's as its own paths), and writes who opened it", async () => {
    const adminEmail = await makeUser("SYSTEM ADMIN");
    const admin = await cookieOf(adminEmail);
    await sendMail({
      to: "carla@example.com",
      subject: "Código para redefinir a senha",
      text: "Seu código: 123456.\nAbrir no portal: http://localhost:3000/recovery/123456\nAjuda: https://example.org/ajuda.",
    });
    const list = await load("/user/emails?para=carla%40example.com", admin);
    const id = list.body.rows[0].id;
    const opened = await load(`/user/emails?para=carla%40example.com&mensagem=${id}`, admin);
    expect(opened.body.message).toMatchObject({
      to: "carla@example.com",
      subject: "Código para redefinir a senha",
      links: [
        { href: "/recovery/123456", text: "http://localhost:3000/recovery/123456" },
        { href: "https://example.org/ajuda", text: "https://example.org/ajuda" },
      ],
    });
    expect(opened.body.message?.text).toContain("Seu código: 123456.");
    const entry = await (await testDb.db())
      .collection(AUDIT_LOG)
      .findOne({ event: "mailRead", "actor.email": adminEmail });
    expect(entry).toMatchObject({ object: { kind: "user", id: "carla@example.com" }, outcome: "ok" });
    expect((await load("/user/emails?mensagem=ffffffffffffffffffffffff", admin)).body.messageMissing).toBe(true);
    expect((await load("/user/emails?mensagem=%24where", admin)).body.messageMissing).toBe(true);
  });

  it("is SYSTEM ADMIN's only, and does not exist when mail goes to a relay", async () => {
    for (const type of ["USER ADMIN", "USER PERMISS", "USER GOLD", "USER BRONZE"] as const) {
      const response = await thrown(outboxRoute.loader(getArgs("/user/emails", await cookieOf(await makeUser(type)))));
      expect(response.status).toBe(403);
    }
    const admin = await cookieOf(await makeUser("SYSTEM ADMIN"));
    const restore = swapEnv({ MAIL: "smtp", SMTP_URL: "smtp://relay.example.com:25" });
    try {
      const response = await thrown(outboxRoute.loader(getArgs("/user/emails", admin)));
      expect(response.status).toBe(403);
    } finally {
      restore();
    }
  });
});

describe("linksOf", () => {
  it("finds each address once, without the sentence's closing punctuation", () => {
    expect(
      linksOf("Veja http://p.test/a?b=1, e http://p.test/a?b=1. Fim (https://x.test/y).", "http://p.test"),
    ).toEqual([
      { href: "/a?b=1", text: "http://p.test/a?b=1" },
      { href: "https://x.test/y", text: "https://x.test/y" },
    ]);
  });
});
