import { describe, expect, it } from "vitest";
import { isCrossSitePostAllowed, isSameOriginRequest, originOf } from "./same-origin";

const allowed = ["https://portal.example.com", "http://127.0.0.1:3000"];

describe("isSameOriginRequest", () => {
  it("lets safe methods through whatever their headers", () => {
    expect(isSameOriginRequest({ method: "GET", origin: "https://evil.test", referer: null, allowed })).toBe(true);
  });
  it("accepts a POST from any of the portal's origins and refuses another origin", () => {
    expect(isSameOriginRequest({ method: "POST", origin: "https://portal.example.com", referer: null, allowed })).toBe(
      true,
    );
    expect(isSameOriginRequest({ method: "POST", origin: "http://127.0.0.1:3000", referer: null, allowed })).toBe(true);
    expect(
      isSameOriginRequest({
        method: "POST",
        origin: "https://evil.test",
        referer: "https://portal.example.com/x",
        allowed,
      }),
    ).toBe(false);
    expect(isSameOriginRequest({ method: "POST", origin: "http://127.0.0.1:3001", referer: null, allowed })).toBe(
      false,
    );
    // A browser sends Origin: null from sandboxed or privacy-stripped contexts: not the portal.
    expect(isSameOriginRequest({ method: "POST", origin: "null", referer: null, allowed })).toBe(false);
  });
  it("compares origins as browsers serialise them (case of the host, default port)", () => {
    expect(isSameOriginRequest({ method: "POST", origin: "https://PORTAL.example.com", referer: null, allowed })).toBe(
      true,
    );
    expect(
      isSameOriginRequest({
        method: "POST",
        origin: "https://portal.example.com",
        referer: null,
        allowed: ["https://portal.example.com:443/"],
      }),
    ).toBe(true);
  });
  it("falls back to the Referer when Origin is absent, and refuses a request with neither", () => {
    expect(
      isSameOriginRequest({
        method: "DELETE",
        origin: null,
        referer: "https://portal.example.com/user/config",
        allowed,
      }),
    ).toBe(true);
    expect(isSameOriginRequest({ method: "POST", origin: null, referer: "https://evil.test/", allowed })).toBe(false);
    expect(isSameOriginRequest({ method: "POST", origin: null, referer: "not a url", allowed })).toBe(false);
    expect(isSameOriginRequest({ method: "POST", origin: null, referer: null, allowed })).toBe(false);
  });
  it("refuses everything when no origin is allowed", () => {
    expect(
      isSameOriginRequest({ method: "POST", origin: "https://portal.example.com", referer: null, allowed: [] }),
    ).toBe(false);
  });
});

describe("originOf", () => {
  it("serialises scheme, host and non-default port only", () => {
    expect(originOf("HTTP://LocalHost:3000/a?b#c")).toBe("http://localhost:3000");
    expect(originOf("https://x.test:443")).toBe("https://x.test");
    expect(originOf("garbage")).toBeNull();
  });
});

describe("isCrossSitePostAllowed", () => {
  it("exempts only the SAML assertion consumer, and only in saml mode", () => {
    expect(isCrossSitePostAllowed("/saml", "saml")).toBe(true);
    expect(isCrossSitePostAllowed("/saml", "cognito-federated")).toBe(false);
    expect(isCrossSitePostAllowed("/user/config", "saml")).toBe(false);
  });
});
