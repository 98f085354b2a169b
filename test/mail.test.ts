import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { getSessionCookie } from "~/platform/auth/session.server";
import { readLatestMail, sendMail } from "~/services/mail.server";
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
    expect(latest).toMatchObject({
      to: "ana@example.com",
      subject: "Segundo",
      text: "código 654321",
      html: "<p>código 654321</p>",
    });
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
