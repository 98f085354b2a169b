import { z } from "zod";
import { PROCESSED_EXTENSIONS } from "~/models/files.fields";
import { DEFAULT_TIME_ZONE, isTimeZone, setPortalTimeZone } from "~/shared/dates";
import { parseIsoDate } from "~/shared/months";
import {
  DEFAULT_FORECAST_REVIEWER_TYPES,
  DEFAULT_HR_EDITOR_TYPES,
  PERMISSION_TYPES,
  type PermissionType,
} from "~/shared/permissions";

/**
 * The whole environment of the portal, validated once at start.
 * A wrong value stops the start with one message that names every invalid variable.
 */

const flag = (defaultValue: boolean) =>
  z
    .enum(["1", "0", "true", "false", "on", "off", "yes", "no", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? defaultValue : ["1", "true", "on", "yes"].includes(v)));

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const cssColor = z
  .string()
  .regex(/^(#[0-9a-fA-F]{3,8}|rgb\([\d\s,%.]+\)|hsl\([\d\s,%.deg]+\))$/, "expected a CSS colour such as #0b5cad");

const positiveInt = (defaultValue: number) => z.coerce.number().int().positive().default(defaultValue);

const csvList = (defaultValue: string) =>
  z
    .string()
    .default(defaultValue)
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    );

/** Each variable's own rule. Rules between variables are in `crossFieldChecks`. */
const envShape = {
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * How long the host keeps an idle keep-alive connection open. Above the load balancer's own idle time (nginx's
   * upstream keepalive_timeout and the ALB's idle timeout, 60 s), so the balancer always gives a connection up first
   * and never sends a request on one the host is closing (a 502). At most 299 s: the headers timeout, 1 s more,
   * stays within Node's 300 s request timeout (server/http-server.ts).
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(299_000).default(75_000),
  /** The portal's own origin, as browsers see it behind the load balancer. Defaults to http://localhost:PORT. */
  APP_ORIGIN: optionalText.pipe(z.string().url().optional()),
  /**
   * Further origins browsers may use for the portal (comma-separated), e.g. a second public name. Forms posted
   * from any other origin are refused (CSRF).
   */
  APP_ALLOWED_ORIGINS: csvList("").pipe(z.array(z.string().url("expected origins such as https://portal.example.com"))),
  /**
   * How many proxies stand between the clients and the host (one load balancer: 1). Express then takes the
   * client's address that many entries from the right of X-Forwarded-For, so a client cannot choose its
   * own address by sending the header, and believes X-Forwarded-Host/-Proto only from them. 0 (the default)
   * when clients connect directly: no forwarded header is believed.
   */
  TRUST_PROXY: optionalText
    .pipe(
      z
        .string()
        .regex(
          /^\d{1,2}$/,
          "expected the number of proxies in front of the host, such as 1 (0 when clients connect directly)",
        )
        .optional(),
    )
    .transform((v) => (v === undefined ? 0 : Number(v))),

  TENANT_ID: z.string().min(1).default("journey"),
  DATABASE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,63}$/, "letters, digits, _ and - only")
    .default("journey_portal"),
  COMPANY_NAME: z.string().min(1).default("Journey"),
  BRAND_TEXT: z.string().min(1).default("Journey Portal"),
  THEME_PRIMARY: cssColor.default("#0b5cad"),
  THEME_PRIMARY_CONTRAST: cssColor.default("#ffffff"),
  THEME_ACCENT: cssColor.default("#f39200"),
  THEME_SURFACE: cssColor.default("#f5f7fa"),
  THEME_TEXT: cssColor.default("#1d2733"),
  /** The IANA time zone every date and time is shown in, on the server and in the browser alike. */
  PORTAL_TIME_ZONE: z
    .string()
    .trim()
    .default(DEFAULT_TIME_ZONE)
    .refine(isTimeZone, "expected an IANA time zone such as America/Sao_Paulo"),

  MONGODB_URI: optionalText.pipe(
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, "must start with mongodb:// or mongodb+srv://")
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default("./data"),
  ALLOW_EMBEDDED_DB: flag(false),

  SESSION_SECRET: optionalText,
  SESSION_IDLE_MINUTES: positiveInt(30),
  SESSION_ABSOLUTE_HOURS: positiveInt(12),
  LOGIN_MAX_FAILURES: positiveInt(5),
  LOGIN_WINDOW_MINUTES: positiveInt(15),
  /** Failed sign-ins (and, apart, reset-code attempts) from all addresses together within LOGIN_WINDOW_MINUTES. */
  LOGIN_GLOBAL_MAX_FAILURES: positiveInt(500),
  /** Personal API tokens (/user/tokens, /api/v1): off refuses every token and the creation of new ones. */
  API_TOKENS: flag(true),
  /** Days the audit trail keeps: older whole days are removed by the daily retention job. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),

  AWS_REGION: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, "expected an AWS region such as us-east-1")
    .default("us-east-1"),

  IDENTITY_PROVIDER: z.enum(["local", "cognito"]).default("local"),
  COGNITO_USER_POOL_ID: optionalText,
  COGNITO_CLIENT_ID: optionalText,
  COGNITO_CLIENT_SECRET: optionalText,
  COGNITO_DOMAIN: optionalText.pipe(z.string().url().optional()),
  COGNITO_IDP_NAME: optionalText,

  SSO_MODE: z.enum(["none", "saml", "cognito-federated"]).default("none"),
  /** Single sign-ons one client address may start (/saml/login) within LOGIN_WINDOW_MINUTES. */
  SSO_START_MAX_PER_IP: z.coerce.number().int().min(1).max(1000).default(100),
  SAML_IDP_ENTRY_POINT: optionalText.pipe(z.string().url().optional()),
  SAML_IDP_CERT: optionalText,
  SAML_SP_ENTITY_ID: optionalText,
  SAML_SP_PRIVATE_KEY: optionalText,
  SAML_SP_CERT: optionalText,

  STORAGE: z.enum(["local", "s3"]).default("local"),
  S3_BUCKET: optionalText,
  /** An S3-compatible endpoint the server calls (MinIO, R2, GCS…); unset = AWS S3 in AWS_REGION. */
  S3_ENDPOINT: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/[^/\s]+/, "expected a URL such as http://minio:9000")
      .url("expected a URL such as http://minio:9000")
      .optional(),
  ),
  /** The endpoint browsers reach for presigned uploads and downloads, when it differs from S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/[^/\s]+/, "expected a URL such as https://files.example.com")
      .url("expected a URL such as https://files.example.com")
      .optional(),
  ),
  /** Path-style addresses (endpoint/bucket/key) instead of bucket.endpoint/key: MinIO and most S3-compatible servers. */
  S3_FORCE_PATH_STYLE: flag(false),
  /** Tag new objects pending=1 until registered (needs a store that supports object tagging, as AWS S3 does). */
  S3_OBJECT_TAGGING: flag(false),
  /** More than one instance of the portal runs (behind a load balancer): shared state is then checked at start. */
  MULTI_INSTANCE: flag(false),
  /** DATA_DIR is one directory every instance mounts (a shared volume): local storage is then allowed with MULTI_INSTANCE. */
  LOCAL_STORAGE_SHARED: flag(false),
  /** How long a database operation waits for a reachable MongoDB before failing (then the page answers 503). */
  MONGODB_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(5_000),
  UPLOAD_MAX_BYTES: positiveInt(2 * 1024 * 1024 * 1024),
  /** The largest request body of a route that takes no file (the upload routes keep their own limits): 413 beyond. */
  REQUEST_BODY_MAX_BYTES: positiveInt(1024 * 1024),
  EXCEL_IMPORT_INLINE_MAX_BYTES: positiveInt(2 * 1024 * 1024),
  /** Only formats some job reads: an upload nothing can process is refused when it is sent, not after. */
  UPLOAD_EXTENSIONS: csvList("csv,xlsx,txt,zip,pdf,docx")
    .transform((list) => list.map((e) => e.toLowerCase().replace(/^\./, "")))
    .superRefine((list, ctx) => {
      const unread = list.filter((e) => !(PROCESSED_EXTENSIONS as readonly string[]).includes(e));
      if (unread.length > 0)
        ctx.addIssue({
          code: "custom",
          message: `${unread.join(", ")} cannot be processed (processed: ${PROCESSED_EXTENSIONS.join(", ")})`,
        });
    }),

  DASHBOARDS: z.enum(["native", "quicksight"]).default("native"),
  QUICKSIGHT_ACCOUNT_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{12}$/, "expected a 12-digit AWS account id")
      .optional(),
  ),
  QUICKSIGHT_NAMESPACE: z.string().min(1).default("default"),
  QUICKSIGHT_SESSION_MINUTES: z.coerce.number().int().min(15).max(600).default(600),
  QUICKSIGHT_ALLOWED_DOMAINS: csvList(""),

  MAIL: z.enum(["outbox", "smtp"]).default("outbox"),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
  ),
  MAIL_FROM: z.string().min(3).default("Journey Portal <no-reply@journey.local>"),
  /** SMTP: how long to wait for the relay's connection and greeting, and for each command's answer. */
  SMTP_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  SMTP_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),

  /** The permission types that may edit HR auxiliary data (spec 001 §6: "a configured list of editing types"). */
  HR_EDITOR_TYPES: csvList(DEFAULT_HR_EDITOR_TYPES.join(",")).pipe(
    z
      .array(
        z.enum(PERMISSION_TYPES, {
          errorMap: () => ({ message: `expected permission types among ${PERMISSION_TYPES.join(", ")}` }),
        }),
      )
      .transform((types): readonly PermissionType[] => [...new Set(types)]),
  ),

  /** The permission types that approve or return a cost centre's forecast (docs/decisions.md "Forecast cycle"). */
  FORECAST_REVIEWER_TYPES: csvList(DEFAULT_FORECAST_REVIEWER_TYPES.join(",")).pipe(
    z
      .array(
        z.enum(PERMISSION_TYPES, {
          errorMap: () => ({ message: `expected permission types among ${PERMISSION_TYPES.join(", ")}` }),
        }),
      )
      .min(1)
      .transform((types): readonly PermissionType[] => [...new Set(types)]),
  ),

  WORKER_IN_PROCESS: flag(true),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),

  FEATURE_DASHBOARD: flag(true),
  FEATURE_REPORT: flag(true),
  FEATURE_JOBS_EXECUTED: flag(true),
  FEATURE_MASTER_REPOSITORY: flag(true),
  FEATURE_UPLOAD: flag(true),
  FEATURE_PLANNING: flag(true),
  FEATURE_EXPLORER: flag(true),
  FEATURE_FINANCIAL_STATEMENT: flag(true),
  FEATURE_AUX_CURRENT_MONTH: flag(false),
  /** Pins the portal's "today" (YYYY-MM-DD) for demos and tests, e.g. to open a forecast scenario's edit month. */
  PORTAL_TODAY: optionalText.pipe(
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date such as 2026-11-15")
      .refine((v) => parseIsoDate(v) !== null, "not a calendar date")
      .optional(),
  ),
};

const envSchema = z.object(envShape);

export type RawEnv = z.infer<typeof envSchema>;

type CrossFieldCheck = { key: keyof RawEnv; message: string; fails: (env: RawEnv) => boolean };

/** Settings that one variable requires of another. */
const crossFieldChecks: CrossFieldCheck[] = [
  {
    key: "SESSION_SECRET",
    message: "required in production",
    fails: (e) => e.NODE_ENV === "production" && !e.SESSION_SECRET,
  },
  {
    key: "SESSION_SECRET",
    message: "must have at least 32 characters",
    fails: (e) => !!e.SESSION_SECRET && e.SESSION_SECRET.length < 32,
  },
  {
    key: "COGNITO_USER_POOL_ID",
    message: "required when Cognito is used",
    fails: (e) => cognitoUsed(e) && !e.COGNITO_USER_POOL_ID,
  },
  {
    key: "COGNITO_CLIENT_ID",
    message: "required when Cognito is used",
    fails: (e) => cognitoUsed(e) && !e.COGNITO_CLIENT_ID,
  },
  {
    key: "COGNITO_DOMAIN",
    message: "required when SSO_MODE=cognito-federated",
    fails: (e) => e.SSO_MODE === "cognito-federated" && !e.COGNITO_DOMAIN,
  },
  {
    key: "SAML_IDP_ENTRY_POINT",
    message: "required when SSO_MODE=saml",
    fails: (e) => e.SSO_MODE === "saml" && !e.SAML_IDP_ENTRY_POINT,
  },
  {
    key: "SAML_IDP_CERT",
    message: "required when SSO_MODE=saml",
    fails: (e) => e.SSO_MODE === "saml" && !e.SAML_IDP_CERT,
  },
  {
    key: "SAML_SP_PRIVATE_KEY",
    message: "required when SSO_MODE=saml",
    fails: (e) => e.SSO_MODE === "saml" && !e.SAML_SP_PRIVATE_KEY,
  },
  {
    key: "SAML_SP_CERT",
    message: "required when SSO_MODE=saml",
    fails: (e) => e.SSO_MODE === "saml" && !e.SAML_SP_CERT,
  },
  { key: "S3_BUCKET", message: "required when STORAGE=s3", fails: (e) => e.STORAGE === "s3" && !e.S3_BUCKET },
  {
    key: "QUICKSIGHT_ACCOUNT_ID",
    message: "required when DASHBOARDS=quicksight",
    fails: (e) => e.DASHBOARDS === "quicksight" && !e.QUICKSIGHT_ACCOUNT_ID,
  },
  { key: "SMTP_URL", message: "required when MAIL=smtp", fails: (e) => e.MAIL === "smtp" && !e.SMTP_URL },
  {
    key: "MULTI_INSTANCE",
    message:
      "with several instances the files must be shared: set STORAGE=s3, or LOCAL_STORAGE_SHARED=1 with DATA_DIR on a volume every instance mounts",
    fails: (e) => e.MULTI_INSTANCE && e.STORAGE === "local" && !e.LOCAL_STORAGE_SHARED,
  },
  {
    key: "MULTI_INSTANCE",
    message: "with several instances MONGODB_URI is required (the embedded database belongs to one process)",
    fails: (e) => e.MULTI_INSTANCE && !e.MONGODB_URI,
  },
];

function cognitoUsed(env: RawEnv): boolean {
  return env.IDENTITY_PROVIDER === "cognito" || env.SSO_MODE === "cognito-federated";
}

const UNDECIDED = Symbol("undecided");

/**
 * Validates every variable on its own and then every rule between variables, and returns all problems
 * together. (A zod object skips its refinements as soon as one field fails, which would hide, say, a
 * missing SESSION_SECRET behind a mistyped PORT.) A rule that reads a variable which is itself invalid
 * is not decided: that variable is already reported.
 */
function validateEnv(source: Record<string, string | undefined>): { env: RawEnv; problems: string[] } {
  const values: Record<string, unknown> = {};
  const invalid = new Set<string>();
  const problems: string[] = [];
  for (const [key, schema] of Object.entries(envShape)) {
    const result = (schema as z.ZodTypeAny).safeParse(source[key]);
    if (result.success) {
      values[key] = result.data;
    } else {
      invalid.add(key);
      for (const issue of result.error.issues) problems.push(`${[key, ...issue.path].join(".")}: ${issue.message}`);
    }
  }
  const readable = new Proxy(values, {
    get(target, key) {
      if (typeof key === "string" && invalid.has(key)) throw UNDECIDED;
      return target[key as string];
    },
  }) as RawEnv;
  for (const check of crossFieldChecks) {
    if (invalid.has(check.key)) continue;
    try {
      if (check.fails(readable)) problems.push(`${check.key}: ${check.message}`);
    } catch (error) {
      if (error !== UNDECIDED) throw error;
    }
  }
  return { env: values as RawEnv, problems: [...new Set(problems)] };
}

export type FeatureFlag =
  | "dashboard"
  | "report"
  | "jobsExecuted"
  | "masterRepository"
  | "upload"
  | "planning"
  | "explorer"
  | "financialStatement"
  | "auxCurrentMonth"
  /** Mail goes to the outbox (MAIL=outbox): its page, /user/emails, exists. */
  | "mailOutbox";

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** A development-only secret; production refuses to start without SESSION_SECRET. */
const DEV_SESSION_SECRET = "journey-portal-development-secret-not-for-production";

export function parseConfig(source: Record<string, string | undefined>) {
  const { env, problems } = validateEnv(source);
  if (problems.length > 0) throw new ConfigError(problems);
  const origin = (env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  // Without APP_ORIGIN the portal is reached on this machine: localhost and 127.0.0.1 are the same portal.
  const localAliases = env.APP_ORIGIN ? [] : [`http://127.0.0.1:${env.PORT}`, `http://[::1]:${env.PORT}`];
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === "production",
    port: env.PORT,
    /** The host's idle keep-alive time (server/http-server.ts). */
    httpKeepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    /** Express `trust proxy`: the number of proxy hops whose X-Forwarded-* headers are believed. */
    trustProxyHops: env.TRUST_PROXY,
    /** The body limit of the routes that take no file (server/body-limit.ts). */
    requestBodyMaxBytes: env.REQUEST_BODY_MAX_BYTES,
    excelImportInlineMaxBytes: env.EXCEL_IMPORT_INLINE_MAX_BYTES,
    origin: origin.replace(/\/$/, ""),
    /** Every origin whose form posts are the portal's own (CSRF): APP_ORIGIN, its local aliases, APP_ALLOWED_ORIGINS. */
    allowedOrigins: [...new Set([origin, ...localAliases, ...env.APP_ALLOWED_ORIGINS.map((o) => new URL(o).origin)])],
    tenantId: env.TENANT_ID,
    databaseName: env.DATABASE_NAME,
    companyName: env.COMPANY_NAME,
    brandText: env.BRAND_TEXT,
    timeZone: env.PORTAL_TIME_ZONE,
    theme: {
      primary: env.THEME_PRIMARY,
      primaryContrast: env.THEME_PRIMARY_CONTRAST,
      accent: env.THEME_ACCENT,
      surface: env.THEME_SURFACE,
      text: env.THEME_TEXT,
    },
    mongodbUri: env.MONGODB_URI,
    dataDir: env.DATA_DIR,
    allowEmbeddedDb: env.ALLOW_EMBEDDED_DB,
    session: {
      secret: env.SESSION_SECRET ?? DEV_SESSION_SECRET,
      idleMinutes: env.SESSION_IDLE_MINUTES,
      absoluteHours: env.SESSION_ABSOLUTE_HOURS,
    },
    loginLimit: {
      maxFailures: env.LOGIN_MAX_FAILURES,
      windowMinutes: env.LOGIN_WINDOW_MINUTES,
      globalMaxFailures: env.LOGIN_GLOBAL_MAX_FAILURES,
    },
    audit: { retentionDays: env.AUDIT_RETENTION_DAYS },
    apiTokens: env.API_TOKENS,
    awsRegion: env.AWS_REGION,
    identity: {
      provider: env.IDENTITY_PROVIDER,
      cognito: {
        userPoolId: env.COGNITO_USER_POOL_ID,
        clientId: env.COGNITO_CLIENT_ID,
        clientSecret: env.COGNITO_CLIENT_SECRET,
        domain: env.COGNITO_DOMAIN,
        identityProviderName: env.COGNITO_IDP_NAME,
      },
    },
    sso: {
      mode: env.SSO_MODE,
      startMaxPerIp: env.SSO_START_MAX_PER_IP,
      saml: {
        idpEntryPoint: env.SAML_IDP_ENTRY_POINT,
        idpCert: env.SAML_IDP_CERT,
        spEntityId: env.SAML_SP_ENTITY_ID ?? `${origin.replace(/\/$/, "")}/saml/metadata`,
        spPrivateKey: env.SAML_SP_PRIVATE_KEY,
        spCert: env.SAML_SP_CERT,
      },
    },
    storage: {
      kind: env.STORAGE,
      bucket: env.S3_BUCKET ?? "local",
      maxBytes: env.UPLOAD_MAX_BYTES,
      extensions: env.UPLOAD_EXTENSIONS,
      s3: {
        endpoint: env.S3_ENDPOINT?.replace(/\/$/, ""),
        publicEndpoint: (env.S3_PUBLIC_ENDPOINT ?? env.S3_ENDPOINT)?.replace(/\/$/, ""),
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
        objectTagging: env.S3_OBJECT_TAGGING,
      },
    },
    instances: { multi: env.MULTI_INSTANCE, localStorageShared: env.LOCAL_STORAGE_SHARED },
    mongodbTimeoutMs: env.MONGODB_TIMEOUT_MS,
    dashboards: {
      kind: env.DASHBOARDS,
      quicksight: {
        accountId: env.QUICKSIGHT_ACCOUNT_ID,
        namespace: env.QUICKSIGHT_NAMESPACE,
        sessionMinutes: env.QUICKSIGHT_SESSION_MINUTES,
        allowedDomains: env.QUICKSIGHT_ALLOWED_DOMAINS.length > 0 ? env.QUICKSIGHT_ALLOWED_DOMAINS : [origin],
      },
    },
    mail: { kind: env.MAIL, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    smtpTimeouts: { connectionMs: env.SMTP_CONNECTION_TIMEOUT_MS, sendMs: env.SMTP_SEND_TIMEOUT_MS },
    hrEditorTypes: env.HR_EDITOR_TYPES,
    forecastReviewerTypes: env.FORECAST_REVIEWER_TYPES,
    workerInProcess: env.WORKER_IN_PROCESS,
    logLevel: env.LOG_LEVEL,
    features: {
      dashboard: env.FEATURE_DASHBOARD,
      report: env.FEATURE_REPORT,
      jobsExecuted: env.FEATURE_JOBS_EXECUTED,
      masterRepository: env.FEATURE_MASTER_REPOSITORY,
      upload: env.FEATURE_UPLOAD,
      planning: env.FEATURE_PLANNING,
      explorer: env.FEATURE_EXPLORER,
      financialStatement: env.FEATURE_FINANCIAL_STATEMENT,
      auxCurrentMonth: env.FEATURE_AUX_CURRENT_MONTH,
      mailOutbox: env.MAIL === "outbox",
    } satisfies Record<FeatureFlag, boolean>,
    /** PORTAL_TODAY: the pinned "today" (YYYY-MM-DD), or undefined for the real clock (app/shared/clock.server.ts). */
    portalToday: env.PORTAL_TODAY,
  };
}

export type Config = ReturnType<typeof parseConfig>;

let cached: Config | undefined;

/** The configuration, parsed from process.env on first use. */
export function getConfig(): Config {
  if (!cached) {
    cached = parseConfig(process.env);
    // Server-rendered dates use the configured zone (app/shared/dates.ts); the browser gets it from the root loader.
    setPortalTimeZone(cached.timeZone);
  }
  return cached;
}

/** Tests change the environment between cases; this forgets the parsed copy. */
export function resetConfigForTests() {
  cached = undefined;
}

/** What a rule is decided against, besides the user's type: the configuration's flags and type lists. */
export type AccessContext = {
  features: Readonly<Record<FeatureFlag, boolean>>;
  /** HR_EDITOR_TYPES: the types that may edit HR auxiliary data (spec 001 §6 leaves the list to configuration). */
  hrEditorTypes: readonly PermissionType[];
  /** FORECAST_REVIEWER_TYPES: the types that approve or return a forecast (absent: the default, SYSTEM ADMIN). */
  forecastReviewerTypes?: readonly PermissionType[];
};

/** What the access rules (app/access.ts) are decided against: the flags and type lists of the configuration. */
export function accessContext(): AccessContext {
  const config = getConfig();
  return {
    features: config.features,
    hrEditorTypes: config.hrEditorTypes,
    forecastReviewerTypes: config.forecastReviewerTypes,
  };
}
