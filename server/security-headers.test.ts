import { describe, expect, it } from "vitest";
import { buildCsp, createNonce, originOf, s3UploadOrigins } from "./security-headers";

describe("buildCsp", () => {
  it("requires the nonce for scripts and allows the region's QuickSight frames", () => {
    const csp = buildCsp({ nonce: "abc123", awsRegion: "sa-east-1" });
    expect(csp).toContain("script-src 'self' 'nonce-abc123'");
    expect(csp).toContain("frame-src 'self' https://sa-east-1.quicksight.aws.amazon.com");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toContain("ws:");
  });

  it("lets forms post on to the identity provider and the dev server use its websocket", () => {
    const csp = buildCsp({
      nonce: "n",
      awsRegion: "us-east-1",
      formActionOrigins: ["https://idp.example.com"],
      dev: true,
    });
    expect(csp).toContain("form-action 'self' https://idp.example.com");
    expect(csp).toContain("connect-src 'self' ws: wss:");
  });

  it("lets the page upload straight to the S3 bucket when the store is S3", () => {
    const csp = buildCsp({
      nonce: "n",
      awsRegion: "sa-east-1",
      connectOrigins: s3UploadOrigins("portal-files", "sa-east-1"),
    });
    expect(csp).toContain(
      "connect-src 'self' https://portal-files.s3.sa-east-1.amazonaws.com https://s3.sa-east-1.amazonaws.com",
    );
    expect(buildCsp({ nonce: "n", awsRegion: "sa-east-1" })).toContain("connect-src 'self';");
  });
});

describe("buildCsp frames", () => {
  it("lets the report viewer frame the portal's own PDFs and nothing else new; plugins stay off", () => {
    const csp = buildCsp({ nonce: "n", awsRegion: "us-east-1" });
    const frameSrc = csp.split("; ").find((d) => d.startsWith("frame-src "));
    expect(frameSrc).toBe("frame-src 'self' https://us-east-1.quicksight.aws.amazon.com");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
  });
});

describe("createNonce", () => {
  it("is fresh and unguessable each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, createNonce));
    expect(nonces.size).toBe(50);
    for (const n of nonces) expect(Buffer.from(n, "base64")).toHaveLength(16);
  });
});

describe("originOf", () => {
  it("keeps only the origin and ignores what is not a URL", () => {
    expect(originOf("https://login.example.com/saml2/idp?x=1")).toEqual(["https://login.example.com"]);
    expect(originOf("not a url")).toEqual([]);
    expect(originOf(undefined)).toEqual([]);
  });
});
