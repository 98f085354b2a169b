import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/config.server";
import { clientErrorStatus } from "../../server/client-errors";
import { buildCsp, s3UploadOrigins } from "../../server/security-headers";

const base = { NODE_ENV: "test" };
const problems = (env: Record<string, string>) => {
  try {
    parseConfig({ ...base, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe("deployment configuration", () => {
  it("has the documented defaults", () => {
    const config = parseConfig(base);
    expect(config.storage.s3).toEqual({
      endpoint: undefined,
      publicEndpoint: undefined,
      forcePathStyle: false,
      objectTagging: false,
    });
    expect(config.smtpTimeouts).toEqual({ connectionMs: 10_000, sendMs: 10_000 });
    expect(config.instances).toEqual({ multi: false, localStorageShared: false });
    expect(config.mongodbTimeoutMs).toBe(5_000);
    expect(config.trustProxyHops).toBe(0);
  });

  it("reads an S3-compatible store: endpoint, the endpoint browsers reach, path style and tags", () => {
    const config = parseConfig({
      ...base,
      STORAGE: "s3",
      S3_BUCKET: "files",
      S3_ENDPOINT: "http://minio:9000/",
      S3_PUBLIC_ENDPOINT: "https://files.example.com",
      S3_FORCE_PATH_STYLE: "1",
      S3_OBJECT_TAGGING: "yes",
    });
    expect(config.storage.s3).toEqual({
      endpoint: "http://minio:9000",
      publicEndpoint: "https://files.example.com",
      forcePathStyle: true,
      objectTagging: true,
    });
    expect(parseConfig({ ...base, S3_ENDPOINT: "http://minio:9000" }).storage.s3.publicEndpoint).toBe(
      "http://minio:9000",
    );
    expect(problems({ S3_ENDPOINT: "minio:9000" })).toEqual([expect.stringMatching(/^S3_ENDPOINT: expected a URL/)]);
  });

  it("refuses several instances on unshared local storage or on the embedded database", () => {
    const multi = { MULTI_INSTANCE: "1", MONGODB_URI: "mongodb://db:27017" };
    expect(problems(multi)).toEqual([
      expect.stringMatching(
        /^MULTI_INSTANCE: with several instances the files must be shared: set STORAGE=s3, or LOCAL_STORAGE_SHARED=1/,
      ),
    ]);
    expect(problems({ ...multi, LOCAL_STORAGE_SHARED: "1" })).toEqual([]);
    expect(problems({ ...multi, STORAGE: "s3", S3_BUCKET: "b" })).toEqual([]);
    expect(problems({ MULTI_INSTANCE: "1", STORAGE: "s3", S3_BUCKET: "b" })).toEqual([
      expect.stringMatching(/MONGODB_URI is required/),
    ]);
  });

  it("bounds the SMTP and database waits", () => {
    expect(
      parseConfig({ ...base, SMTP_CONNECTION_TIMEOUT_MS: "2500", SMTP_SEND_TIMEOUT_MS: "4000" }).smtpTimeouts,
    ).toEqual({ connectionMs: 2500, sendMs: 4000 });
    expect(problems({ SMTP_SEND_TIMEOUT_MS: "0", MONGODB_TIMEOUT_MS: "abc" })).toHaveLength(2);
  });
});

describe("CSP for the configured object store", () => {
  const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";

  it("lets the browser upload to, be redirected to and show images from an S3-compatible public endpoint", () => {
    const origins = s3UploadOrigins("journey-uploads", "us-east-1", {
      publicEndpoint: "http://localhost:9000",
      forcePathStyle: true,
    });
    expect(origins).toEqual(["http://localhost:9000"]);
    const csp = buildCsp({
      nonce: "n",
      awsRegion: "us-east-1",
      storageOrigins: origins,
      formActionOrigins: ["https://idp.example.com"],
    });
    expect(directive(csp, "connect-src")).toBe("connect-src 'self' http://localhost:9000");
    expect(directive(csp, "form-action")).toBe("form-action 'self' https://idp.example.com http://localhost:9000");
    expect(directive(csp, "img-src")).toBe("img-src 'self' data: blob: http://localhost:9000");
  });

  it("names the bucket host with virtual-hosted addressing, and the AWS endpoints without an endpoint", () => {
    expect(s3UploadOrigins("b", "eu-west-1", { publicEndpoint: "https://r2.example.com" })).toEqual([
      "https://b.r2.example.com",
      "https://r2.example.com",
    ]);
    const aws = s3UploadOrigins("b", "sa-east-1");
    expect(aws).toEqual(["https://b.s3.sa-east-1.amazonaws.com", "https://s3.sa-east-1.amazonaws.com"]);
    const csp = buildCsp({ nonce: "n", awsRegion: "sa-east-1", storageOrigins: aws });
    // A no-JavaScript download is a form post answered with a redirect to the presigned GET: form-action must allow it.
    expect(directive(csp, "form-action")).toContain("https://b.s3.sa-east-1.amazonaws.com");
  });
});

describe("requests Node cannot parse", () => {
  it("answer 431 for oversize headers, 408 for a slow request and 400 otherwise, never 500", () => {
    expect(clientErrorStatus("HPE_HEADER_OVERFLOW")).toBe(431);
    expect(clientErrorStatus("ERR_HTTP_REQUEST_TIMEOUT")).toBe(408);
    for (const code of [
      "HPE_INVALID_METHOD",
      "HPE_INVALID_URL",
      "HPE_INVALID_VERSION",
      "HPE_INVALID_HEADER_TOKEN",
      undefined,
    ])
      expect(clientErrorStatus(code)).toBe(400);
  });
});
