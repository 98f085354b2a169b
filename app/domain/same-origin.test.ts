import { describe, expect, it } from "vitest";
import { isCrossSitePostAllowed, isSameOriginRequest } from "./same-origin";

const expected = "https://portal.example.com";

describe("isSameOriginRequest", () => {
  it("lets safe methods through whatever their headers", () => {
    expect(isSameOriginRequest({ method: "GET", origin: "https://evil.test", referer: null, expected })).toBe(true);
  });
  it("accepts a POST from the portal's own origin and refuses another origin", () => {
    expect(isSameOriginRequest({ method: "POST", origin: expected, referer: null, expected })).toBe(true);
    expect(isSameOriginRequest({ method: "POST", origin: "https://evil.test", referer: `${expected}/x`, expected })).toBe(false);
  });
  it("falls back to the Referer when Origin is absent, and refuses a request with neither", () => {
    expect(isSameOriginRequest({ method: "DELETE", origin: null, referer: `${expected}/user/config`, expected })).toBe(true);
    expect(isSameOriginRequest({ method: "POST", origin: null, referer: "https://evil.test/", expected })).toBe(false);
    expect(isSameOriginRequest({ method: "POST", origin: null, referer: "not a url", expected })).toBe(false);
    expect(isSameOriginRequest({ method: "POST", origin: null, referer: null, expected })).toBe(false);
  });
});

describe("isCrossSitePostAllowed", () => {
  it("exempts only the SAML assertion consumer, and only in saml mode", () => {
    expect(isCrossSitePostAllowed("/saml", "saml")).toBe(true);
    expect(isCrossSitePostAllowed("/saml", "cognito-federated")).toBe(false);
    expect(isCrossSitePostAllowed("/user/config", "saml")).toBe(false);
  });
});
