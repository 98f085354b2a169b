import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config.server";

const secret = "x".repeat(32);

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected parseConfig to reject this environment");
}

describe("parseConfig", () => {
  it("gives a working development configuration from an empty environment", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      env: "development",
      isProduction: false,
      port: 3000,
      origin: "http://localhost:3000",
      databaseName: "journey_portal",
      awsRegion: "us-east-1",
      mongodbUri: undefined,
      dataDir: "./data",
      allowEmbeddedDb: false,
      identity: { provider: "local" },
      sso: { mode: "none" },
      storage: { kind: "local" },
      dashboards: { kind: "native" },
      mail: { kind: "outbox" },
    });
    expect(config.theme.primary).toMatch(/^#/);
    expect(config.session.secret.length).toBeGreaterThanOrEqual(32);
    expect(config.features).toEqual({
      dashboard: true,
      report: true,
      jobsExecuted: true,
      masterRepository: true,
      upload: true,
      planning: true,
      explorer: true,
      financialStatement: true,
      auxCurrentMonth: false,
      // Mail kept in the outbox (the default): its page exists; with a relay it does not.
      mailOutbox: true,
    });
    expect(parseConfig({ MAIL: "smtp", SMTP_URL: "smtp://relay.example.com:25" }).features.mailOutbox).toBe(false);
  });

  it("accepts for upload only formats some job processes: no .xls by default, and none configured", () => {
    expect(parseConfig({}).storage.extensions).toEqual(["csv", "xlsx", "txt", "zip", "pdf", "docx"]);
    expect(parseConfig({ UPLOAD_EXTENSIONS: "CSV,.xlsx" }).storage.extensions).toEqual(["csv", "xlsx"]);
    const problems = problemsOf({ UPLOAD_EXTENSIONS: "csv,xls,exe" });
    expect(problems).toEqual([
      "UPLOAD_EXTENSIONS: xls, exe cannot be processed (processed: csv, txt, xlsx, zip, pdf, docx)",
    ]);
  });

  it("reads feature flags in their accepted spellings", () => {
    const config = parseConfig({
      FEATURE_UPLOAD: "off",
      FEATURE_PLANNING: "0",
      FEATURE_AUX_CURRENT_MONTH: "yes",
      FEATURE_REPORT: "",
    });
    expect(config.features.upload).toBe(false);
    expect(config.features.planning).toBe(false);
    expect(config.features.auxCurrentMonth).toBe(true);
    expect(config.features.report).toBe(true);
  });

  it("lists every invalid variable in one error", () => {
    const problems = problemsOf({
      PORT: "not-a-port",
      MONGODB_URI: "http://db",
      AWS_REGION: "Brazil",
      THEME_PRIMARY: "red;}body{",
      FEATURE_UPLOAD: "maybe",
      IDENTITY_PROVIDER: "ldap",
      DATABASE_NAME: "bad name",
    });
    const keys = problems.map((p) => p.split(":")[0]);
    expect(keys).toEqual(
      expect.arrayContaining([
        "PORT",
        "MONGODB_URI",
        "AWS_REGION",
        "THEME_PRIMARY",
        "FEATURE_UPLOAD",
        "IDENTITY_PROVIDER",
        "DATABASE_NAME",
      ]),
    );
    let message = "";
    try {
      parseConfig({ PORT: "x", AWS_REGION: "Brazil" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("PORT");
    expect(message).toContain("AWS_REGION");
  });

  it("lists wrong values and missing required settings together in one error", () => {
    const env = { PORT: "abc", STORAGE: "s3", NODE_ENV: "production", DASHBOARDS: "quicksight" };
    expect(problemsOf(env)).toEqual([
      "PORT: Expected number, received nan",
      "SESSION_SECRET: required in production",
      "S3_BUCKET: required when STORAGE=s3",
      "QUICKSIGHT_ACCOUNT_ID: required when DASHBOARDS=quicksight",
    ]);
    expect(() => parseConfig(env)).toThrow(/PORT[\s\S]*SESSION_SECRET[\s\S]*S3_BUCKET[\s\S]*QUICKSIGHT_ACCOUNT_ID/);
  });

  it("reports an invalid variable once, without guessing the rules that depend on it", () => {
    expect(problemsOf({ DASHBOARDS: "quicksight", QUICKSIGHT_ACCOUNT_ID: "abc" })).toEqual([
      "QUICKSIGHT_ACCOUNT_ID: expected a 12-digit AWS account id",
    ]);
    expect(problemsOf({ NODE_ENV: "prod", STORAGE: "s3" })).toEqual([
      "NODE_ENV: Invalid enum value. Expected 'development' | 'production' | 'test', received 'prod'",
      "S3_BUCKET: required when STORAGE=s3",
    ]);
  });

  it("accepts localhost and 127.0.0.1 without APP_ORIGIN, and the configured origins otherwise", () => {
    expect(parseConfig({ PORT: "3100" }).allowedOrigins).toEqual([
      "http://localhost:3100",
      "http://127.0.0.1:3100",
      "http://[::1]:3100",
    ]);
    expect(parseConfig({ APP_ORIGIN: "https://portal.example.com/" }).allowedOrigins).toEqual([
      "https://portal.example.com",
    ]);
    expect(
      parseConfig({
        APP_ORIGIN: "https://portal.example.com",
        APP_ALLOWED_ORIGINS: "https://bi.example.com/, https://portal.example.com",
      }).allowedOrigins,
    ).toEqual(["https://portal.example.com", "https://bi.example.com"]);
    expect(problemsOf({ APP_ALLOWED_ORIGINS: "portal.example.com" })).toEqual([
      "APP_ALLOWED_ORIGINS.0: expected origins such as https://portal.example.com",
    ]);
  });

  it("reads HR_EDITOR_TYPES as permission types (default SYSTEM ADMIN and USER GOLD)", () => {
    expect(parseConfig({}).hrEditorTypes).toEqual(["SYSTEM ADMIN", "USER GOLD"]);
    expect(parseConfig({ HR_EDITOR_TYPES: "USER SILVER, USER GOLD" }).hrEditorTypes).toEqual([
      "USER SILVER",
      "USER GOLD",
    ]);
    expect(problemsOf({ HR_EDITOR_TYPES: "USER GOLD,CHEF" })[0]).toMatch(
      /^HR_EDITOR_TYPES\.1: expected permission types among SYSTEM ADMIN/,
    );
  });

  it("reads PORTAL_TIME_ZONE as an IANA zone (default America/Sao_Paulo)", () => {
    expect(parseConfig({}).timeZone).toBe("America/Sao_Paulo");
    expect(parseConfig({ PORTAL_TIME_ZONE: "America/Manaus" }).timeZone).toBe("America/Manaus");
    expect(problemsOf({ PORTAL_TIME_ZONE: "Brasilia" })).toEqual([
      "PORTAL_TIME_ZONE: expected an IANA time zone such as America/Sao_Paulo",
    ]);
  });

  it("trusts no proxy by default (clients connect directly) and takes the hop count behind a load balancer", () => {
    expect(parseConfig({}).trustProxyHops).toBe(0);
    expect(parseConfig({ TRUST_PROXY: "" }).trustProxyHops).toBe(0);
    expect(parseConfig({ TRUST_PROXY: "1" }).trustProxyHops).toBe(1);
    expect(parseConfig({ TRUST_PROXY: "0" }).trustProxyHops).toBe(0);
    expect(parseConfig({ TRUST_PROXY: "2" }).trustProxyHops).toBe(2);
    for (const bad of ["true", "-1", "1.5", "all", "100"]) {
      expect(problemsOf({ TRUST_PROXY: bad })).toEqual([
        "TRUST_PROXY: expected the number of proxies in front of the host, such as 1 (0 when clients connect directly)",
      ]);
    }
  });

  it("requires SESSION_SECRET in production, of at least 32 characters", () => {
    expect(problemsOf({ NODE_ENV: "production" })).toEqual(["SESSION_SECRET: required in production"]);
    expect(problemsOf({ NODE_ENV: "production", SESSION_SECRET: "short" })).toEqual([
      "SESSION_SECRET: must have at least 32 characters",
    ]);
    const config = parseConfig({ NODE_ENV: "production", SESSION_SECRET: secret });
    expect(config.isProduction).toBe(true);
    expect(config.session.secret).toBe(secret);
  });

  it("requires each chosen provider's settings", () => {
    expect(problemsOf({ IDENTITY_PROVIDER: "cognito" })).toEqual([
      "COGNITO_USER_POOL_ID: required when Cognito is used",
      "COGNITO_CLIENT_ID: required when Cognito is used",
    ]);
    expect(problemsOf({ STORAGE: "s3" })).toEqual(["S3_BUCKET: required when STORAGE=s3"]);
    expect(problemsOf({ DASHBOARDS: "quicksight" })).toEqual([
      "QUICKSIGHT_ACCOUNT_ID: required when DASHBOARDS=quicksight",
    ]);
    expect(problemsOf({ MAIL: "smtp" })).toEqual(["SMTP_URL: required when MAIL=smtp"]);
    expect(problemsOf({ SSO_MODE: "saml" })).toEqual([
      "SAML_IDP_ENTRY_POINT: required when SSO_MODE=saml",
      "SAML_IDP_CERT: required when SSO_MODE=saml",
      "SAML_SP_PRIVATE_KEY: required when SSO_MODE=saml",
      "SAML_SP_CERT: required when SSO_MODE=saml",
    ]);
    expect(problemsOf({ SSO_MODE: "cognito-federated" })).toEqual(
      expect.arrayContaining(["COGNITO_DOMAIN: required when SSO_MODE=cognito-federated"]),
    );
  });

  it("accepts a complete AWS configuration", () => {
    const config = parseConfig({
      NODE_ENV: "production",
      SESSION_SECRET: secret,
      APP_ORIGIN: "https://portal.example.com/",
      MONGODB_URI: "mongodb+srv://user:pass@cluster.example.net/",
      AWS_REGION: "sa-east-1",
      IDENTITY_PROVIDER: "cognito",
      COGNITO_USER_POOL_ID: "sa-east-1_abc",
      COGNITO_CLIENT_ID: "client",
      STORAGE: "s3",
      S3_BUCKET: "portal-files",
      DASHBOARDS: "quicksight",
      QUICKSIGHT_ACCOUNT_ID: "123456789012",
      MAIL: "smtp",
      SMTP_URL: "smtps://user:pass@smtp.example.com:465",
    });
    expect(config.origin).toBe("https://portal.example.com");
    expect(config.awsRegion).toBe("sa-east-1");
    expect(config.storage).toMatchObject({ kind: "s3", bucket: "portal-files" });
    expect(config.dashboards.quicksight).toMatchObject({
      accountId: "123456789012",
      allowedDomains: ["https://portal.example.com"],
    });
  });
});
