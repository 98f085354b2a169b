import net from "node:net";
import type { ActionFunctionArgs } from "@remix-run/node";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { insertLocalUser } from "~/models/local-users.server";
import { action as indexAction } from "~/routes/_index";
import { readLatestMail, sendMail, settleBackgroundMail } from "~/services/mail.server";
import { useTestDatabase } from "./db";
import { freePort } from "./deploy/stack";
import { captureLog } from "./s3/s3rver";

/**
 * MAIL=smtp against real SMTP servers started here (smtp-server): a working relay with authentication, a relay that
 * refuses the recipient, one that accepts the connection and never greets, one that stalls during the message, and
 * no relay at all. The forgot-password answer must be the same for known and unknown e-mails whatever the relay does.
 */

useTestDatabase();

type Received = { from: string; to: string[]; data: string; user?: string };

async function startRelay(options: { refuseRecipients?: boolean; stallData?: boolean } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    // close() ends open sessions (a stalled client) after this instead of waiting 30 s.
    closeTimeout: 200,
    onAuth(auth, _session, callback) {
      if (auth.username === "portal" && auth.password === "relay-pass") callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onRcptTo(_address, _session, callback) {
      if (options.refuseRecipients) {
        const error = new Error("Mailbox unavailable") as Error & { responseCode?: number };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
      stream.on("end", () => {
        if (options.stallData) return; // never answers the end of DATA
        received.push({
          from: String(session.envelope.mailFrom ? session.envelope.mailFrom.address : session.envelope.mailFrom),
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A TCP server that accepts connections and never says a word (a relay hung before its greeting). */
async function startSilentRelay() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function useSmtp(url: string, timeouts = { connection: "400", send: "400" }) {
  process.env.MAIL = "smtp";
  process.env.SMTP_URL = url;
  process.env.SMTP_CONNECTION_TIMEOUT_MS = timeouts.connection;
  process.env.SMTP_SEND_TIMEOUT_MS = timeouts.send;
  resetConfigForTests();
}

afterEach(() => {
  for (const key of ["MAIL", "SMTP_URL", "SMTP_CONNECTION_TIMEOUT_MS", "SMTP_SEND_TIMEOUT_MS"]) delete process.env[key];
  resetConfigForTests();
});

const timed = async <T>(fn: () => Promise<T>) => {
  const started = Date.now();
  const outcome = await fn().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error: error as Error }),
  );
  return { ...outcome, ms: Date.now() - started };
};

describe("mail over SMTP (smtp-server)", () => {
  it("sends through nodemailer to the relay in SMTP_URL, with its credentials, and stores nothing in the outbox", async () => {
    const relay = await startRelay();
    try {
      useSmtp(`smtp://portal:relay-pass@127.0.0.1:${relay.port}`);
      const { lines } = await captureLog(() =>
        sendMail({ to: "bia@example.com", subject: "Teste SMTP", text: "Olá Bia, seu código: 123456" }),
      );
      expect(relay.received).toHaveLength(1);
      expect(relay.received[0]).toMatchObject({ to: ["bia@example.com"], user: "portal" });
      expect(relay.received[0].data).toContain("Subject: Teste SMTP");
      expect(relay.received[0].data).toContain("123456");
      expect(lines.find((l) => l.msg === "mail sent")).toMatchObject({
        component: "mail",
        relay: `smtp://127.0.0.1:${relay.port}`,
        to: "bia@example.com",
      });
      // The relay's password and the message body stay out of the log.
      expect(JSON.stringify(lines)).not.toMatch(/relay-pass|123456/);
      delete process.env.MAIL;
      resetConfigForTests();
      expect(await readLatestMail("bia@example.com")).toBeNull();
    } finally {
      await relay.close();
    }
  });

  it("fails quickly, with the cause logged, when the relay refuses, is down, never greets or stalls mid-message", async () => {
    const refusing = await startRelay({ refuseRecipients: true });
    const stalling = await startRelay({ stallData: true });
    const silent = await startSilentRelay();
    try {
      const cases = [
        { name: "refused", url: `smtp://127.0.0.1:${refusing.port}`, cause: /550|Mailbox unavailable/ },
        { name: "down", url: `smtp://127.0.0.1:${await freePort()}`, cause: /ECONNREFUSED/ },
        {
          name: "no greeting",
          url: `smtp://127.0.0.1:${silent.port}`,
          cause: /Greeting never received|timeout|Timeout|did not accept/i,
        },
        { name: "stalled", url: `smtp://127.0.0.1:${stalling.port}`, cause: /timeout|Timeout|did not accept/i },
      ];
      for (const c of cases) {
        useSmtp(c.url);
        const { result, lines } = await captureLog(() =>
          timed(() => sendMail({ to: "caio@example.com", subject: c.name, text: "x" })),
        );
        expect(result.ok, c.name).toBe(false);
        // The waits are bounded by SMTP_CONNECTION_TIMEOUT_MS and SMTP_SEND_TIMEOUT_MS (400 ms each here).
        expect(result.ms, c.name).toBeLessThan(3_000);
        const line = lines.find((l) => l.msg === "mail not sent");
        expect(line, c.name).toMatchObject({
          level: "error",
          component: "mail",
          to: "caio@example.com",
          subject: c.name,
        });
        expect(`${String(line?.error)} ${String(line?.errorCode)}`, c.name).toMatch(c.cause);
      }
    } finally {
      await Promise.all([refusing.close(), stalling.close(), silent.close()]);
    }
  });

  it("defaults to 10 s connection and send timeouts", () => {
    useSmtp("smtp://relay.example.com", { connection: "", send: "" });
    delete process.env.SMTP_CONNECTION_TIMEOUT_MS;
    delete process.env.SMTP_SEND_TIMEOUT_MS;
    resetConfigForTests();
    return import("~/config.server").then(({ getConfig }) =>
      expect(getConfig().smtpTimeouts).toEqual({ connectionMs: 10_000, sendMs: 10_000 }),
    );
  });
});

describe("forgot password whatever the relay does", () => {
  const KNOWN = "conhecida@example.com";
  const UNKNOWN = "ninguem@example.com";
  beforeAll(async () => {
    await insertLocalUser({
      email: KNOWN,
      passwordHash: "scrypt$unused",
      mustChangePassword: false,
      createdAt: new Date(),
    });
  });
  afterAll(async () => {
    await settleBackgroundMail();
  });

  async function forgot(email: string) {
    const body = new URLSearchParams({ intent: "forgot", email });
    const request = new Request("http://localhost:3000/", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost:3000" },
      body,
    });
    const started = Date.now();
    const result = (await indexAction({
      request,
      params: {},
      context: { clientIp: "127.0.0.1" },
    } as unknown as ActionFunctionArgs)) as Response | { data: unknown; init?: { status?: number } | null };
    const ms = Date.now() - started;
    if (result instanceof Response) return { status: result.status, body: await result.text(), ms };
    return { status: result.init?.status ?? 200, body: JSON.stringify(result.data), ms };
  }

  it("answers the same page for a known and an unknown e-mail with a working, a dead and a hung relay, and logs the failure", async () => {
    const relay = await startRelay();
    const silent = await startSilentRelay();
    try {
      const relays = [
        { name: "working", url: `smtp://127.0.0.1:${relay.port}` },
        { name: "dead", url: `smtp://127.0.0.1:${await freePort()}` },
        // A hung relay with the default 10 s timeouts: the answer must not wait for it.
        { name: "hung", url: `smtp://127.0.0.1:${silent.port}`, timeouts: { connection: "10000", send: "10000" } },
      ];
      for (const r of relays) {
        useSmtp(r.url, r.timeouts);
        const { result, lines } = await captureLog(async () => {
          const known = await forgot(KNOWN);
          const unknown = await forgot(UNKNOWN);
          if (r.name !== "hung") await settleBackgroundMail();
          return { known, unknown };
        });
        expect(result.known.status, r.name).toBe(200);
        expect(result.known.body, r.name).toBe(result.unknown.body);
        expect(result.known.body, r.name).toContain('"sent":true');
        expect(result.known.ms, r.name).toBeLessThan(2_000);
        if (r.name === "dead") {
          expect(
            lines.find((l) => l.msg === "mail not sent"),
            r.name,
          ).toMatchObject({ level: "error", to: KNOWN, errorCode: "ESOCKET" });
          // The failure line does not carry the code.
          expect(JSON.stringify(lines)).not.toMatch(/código:?\s*[0-9A-HJKMNP-TV-Z]{26}/);
        }
      }
      expect(relay.received.map((m) => m.to[0])).toEqual([KNOWN]);
      expect(relay.received[0].data).toMatch(/[0-9A-HJKMNP-TV-Z]{26}/);
    } finally {
      await Promise.all([relay.close(), silent.close()]);
    }
  });
});
