import { describe, expect, it } from "vitest";
import { getClientIp } from "~/features/access/login-limit.server";
import { safeRedirectPath } from "~/platform/auth/session.server";

describe("safeRedirectPath", () => {
  it("keeps same-site paths and refuses anything else", () => {
    expect(safeRedirectPath("/ij/painel/3")).toBe("/ij/painel/3");
    expect(safeRedirectPath("/user/config/?a=1")).toBe("/user/config/?a=1");
    expect(safeRedirectPath("//evil.example/x")).toBe("/");
    expect(safeRedirectPath("/\\evil.example")).toBe("/");
    expect(safeRedirectPath("https://evil.example")).toBe("/");
    expect(safeRedirectPath(undefined, "/home")).toBe("/home");
  });
});

describe("getClientIp", () => {
  it("reads clientIp from the load context only", () => {
    expect(getClientIp({ clientIp: "203.0.113.7" })).toBe("203.0.113.7");
    expect(getClientIp({})).toBeNull();
    expect(getClientIp(undefined)).toBeNull();
    expect(getClientIp({ clientIp: 42 })).toBeNull();
  });
});
