import net from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { readLatestMail, sendMail } from "~/services/mail.server";
import { getSessionCookie } from "~/session.server";
import { useTestDatabase } from "./db";

useTestDatabase();

afterEach(() => {
  for (const key of ["LOG_LEVEL", "NODE_ENV", "APP_ORIGIN", "SESSION_SECRET"]) delete process.env[key];
  process.env.NODE_ENV = "test";
  resetConfigForTests();
});

describe("mail outbox", () => {
  it("stores each message and logs one JSON line without the body", async () => {
    process.env.LOG_LEVEL = "info";
    resetConfigForTests();
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    await sendMail({ to: "Ana@Example.com", subject: "Primeiro", text: "código 123456" });
    await sendMail({ to: "ana@example.com", subject: "Segundo", text: "código 654321", html: "<p>código 654321</p>" });
    const latest = await readLatestMail("ANA@example.com");
    expect(latest).toMatchObject({ to: "ana@example.com", subject: "Segundo", text: "código 654321", html: "<p>código 654321</p>" });
    expect(latest?.from).toContain("@");
    expect(info).toHaveBeenCalledTimes(2);
    const line = JSON.parse(String(info.mock.calls[1][0]));
    expect(line).toMatchObject({ level: "info", msg: "mail.outbox", to: "ana@example.com", subject: "Segundo" });
    expect(String(info.mock.calls[1][0])).not.toContain("654321");
    info.mockRestore();
  });

  it("refuses a recipient that is not an address", async () => {
    await expect(sendMail({ to: "nobody", subject: "x", text: "y" })).rejects.toThrow(/invalid recipient/);
    expect(await readLatestMail("nobody@example.com")).toBeNull();
  });
});

/** A minimal SMTP server (no TLS, no auth) that keeps each message's DATA. */
async function startFakeSmtp() {
  const received: Array<{ from: string; to: string[]; data: string }> = [];
  const server = net.createServer((socket) => {
    let buffer = "";
    let inData = false;
    let current = { from: "", to: [] as string[], data: "" };
    socket.write("220 fake.smtp ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      while (true) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: "", to: [], data: "" };
          socket.write("250 OK queued\r\n");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250 fake.smtp\r\n");
        else if (verb === "MAIL") (current.from = line), socket.write("250 OK\r\n");
        else if (verb === "RCPT") current.to.push(line), socket.write("250 OK\r\n");
        else if (verb === "DATA") (inData = true), socket.write("354 go ahead\r\n");
        else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 OK\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("mail over SMTP", () => {
  it("sends through nodemailer to SMTP_URL and stores nothing in the outbox", async () => {
    const smtp = await startFakeSmtp();
    process.env.MAIL = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
    resetConfigForTests();
    try {
      await sendMail({ to: "bia@example.com", subject: "Teste SMTP", text: "Olá Bia" });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].to[0]).toContain("bia@example.com");
      expect(smtp.received[0].data).toContain("Subject: Teste SMTP");
      expect(smtp.received[0].data).toContain("Ol");
      delete process.env.MAIL;
      resetConfigForTests();
      expect(await readLatestMail("bia@example.com")).toBeNull();
    } finally {
      delete process.env.MAIL;
      delete process.env.SMTP_URL;
      await smtp.close();
    }
  });
});

describe("session cookie", () => {
  it("is Secure in production over https", async () => {
    process.env.NODE_ENV = "production";
    process.env.APP_ORIGIN = "https://portal.example.com";
    process.env.SESSION_SECRET = "x".repeat(40);
    process.env.MONGODB_URI = process.env.MONGODB_URI ?? "mongodb://127.0.0.1:1";
    resetConfigForTests();
    const header = await getSessionCookie().serialize("abc");
    expect(header).toMatch(/Secure/);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
  });
});
