import { describe, expect, it } from "vitest";
import { createErrorReporter, errorSignature } from "../../app/shared/error-log.server";
import { createLogger, redact } from "../../app/shared/logger.server";

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const logger = createLogger("debug", (line) => {
    raw.push(line);
    lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { lines, raw, logger };
}

describe("secrets never reach the log", () => {
  it("redacts download tokens, reset codes, presigned signatures and passwords wherever they appear", () => {
    const { raw, logger } = capture();
    logger.info("request", {
      path: "/download/eyJrZXkiOiIyMDI2LzAxL2EuY3N2In0.c2lnbmF0dXJl",
      referer: "http://x/recovery/482913?email=a@b.c",
    });
    logger.error("s3", {
      url: "https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIA123%2F20260101&X-Amz-Signature=deadbeefcafe&X-Amz-Expires=300",
      body: JSON.stringify({ email: "a@b.c", password: "Portal#2026", confirmPassword: "Portal#2026" }),
      form: "intent=newPassword&password=S3cret%21&challenge=abc.def",
      text: "Seu código: 123456\n",
    });
    const all = raw.join("\n");
    for (const secret of [
      "eyJrZXkiOiIyMDI2LzAxL2EuY3N2In0",
      "482913",
      "deadbeefcafe",
      "AKIA123",
      "Portal#2026",
      "S3cret",
      "abc.def",
      "123456",
    ]) {
      expect(all).not.toContain(secret);
    }
    expect(all).toContain("/download/:token");
    expect(all).toContain("/recovery/:code");
    expect(all).toContain("X-Amz-Expires=300");
    // Each line stays valid JSON after redaction.
    for (const line of raw) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("redacts a download token in an error's path, however the path is spelled", () => {
    const { raw, logger } = capture();
    const reporter = createErrorReporter(logger);
    const token = "eyJrZXkiOiJhIn0.U2VjcmV0U2ln";
    reporter.report(new Error("boom"), { path: `/%64ownload/${token}` });
    reporter.report(new Error("bang"), { path: `/DOWNLOAD/${token}` });
    logger.info("request", { referer: `http://x/Download/${token}` });
    reporter.stop();
    expect(raw.join("\n")).not.toContain("U2VjcmV0U2ln");
  });

  it("leaves ordinary text alone", () => {
    expect(redact('{"msg":"request","path":"/captura/processando","status":200}')).toBe(
      '{"msg":"request","path":"/captura/processando","status":200}',
    );
  });
});

describe("error reporter", () => {
  it("logs one structured line per error with request id, message and stack, and summarises repeats", () => {
    const { lines, logger } = capture();
    let now = 1_000_000;
    const reporter = createErrorReporter(logger, { windowMs: 60_000, now: () => now });
    // The same failure at the same place, each time about another order.
    const boom = (order: number) => new Error(`database said no to order ${order}`);
    reporter.report(boom(4711), { requestId: "r1", method: "GET", path: "/a" });
    for (let i = 2; i <= 50; i++) reporter.report(boom(4700 + i), { requestId: `r${i}`, path: "/a" });
    reporter.report(new TypeError("something else"), { requestId: "x1" });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: "error",
      msg: "unhandled error",
      requestId: "r1",
      method: "GET",
      path: "/a",
      error: "database said no to order 4711",
    });
    expect(String(lines[0].stack)).toContain("Error: database said no");
    expect(lines[1]).toMatchObject({ requestId: "x1", errorName: "TypeError" });

    now += 60_000;
    reporter.flush();
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({
      level: "error",
      msg: "error repeated",
      count: 49,
      lastRequestId: "r50",
      lastPath: "/a",
    });
    // A flood that goes on stays one summary line per window…
    reporter.report(boom(1), { requestId: "r51" });
    expect(lines).toHaveLength(3);
    now += 60_000;
    reporter.flush();
    expect(lines.at(-1)).toMatchObject({ msg: "error repeated", count: 1, lastRequestId: "r51" });
    // …and after a quiet window the error is logged in full again.
    now += 60_000;
    reporter.flush();
    reporter.report(boom(2), { requestId: "r52" });
    expect(lines.at(-1)).toMatchObject({ msg: "unhandled error", requestId: "r52" });
    reporter.stop();
  });

  it("tells different errors apart by name, message shape and where they were thrown", () => {
    const timeout = (ms: number) => new Error(`timeout after ${ms} ms`);
    expect(errorSignature(timeout(5000))).toBe(errorSignature(timeout(7000)));
    const elsewhere = new Error("timeout after 5000 ms");
    expect(errorSignature(elsewhere)).not.toBe(errorSignature(timeout(5000)));
    expect(errorSignature(new Error("x"))).not.toBe(errorSignature(new TypeError("x")));
  });
});
