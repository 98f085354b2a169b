import type { GenerateEmbedUrlForRegisteredUserCommandInput, QuickSightClient } from "@aws-sdk/client-quicksight";
import { type Config, getConfig } from "~/config.server";
import { dashboardTexts } from "~/messages";

/**
 * The QuickSight provider. The server asks for the embed address with the container's own credentials
 * (the default AWS credential chain: task role, instance profile or environment); the browser never
 * receives AWS credentials, unlike the identity-pool approach of the original portal.
 */

/** Embedding toolbar options of the original portal's /getembededurl call (resetDisabled, undoRedoDisabled). */
export const EMBED_TOOLBAR = { resetDisabled: false, undoRedoDisabled: false } as const;

export type EmbedAddress = {
  embedUrl: string;
  /**
   * How long the QuickSight session still lasts, in ms, when the answer leaves the server. A duration,
   * not an instant: the browser counts it from receipt, so a wrong browser clock cannot move the renewal.
   */
  expiresInMs: number;
  sessionMinutes: number;
  toolbar: typeof EMBED_TOOLBAR;
};

export class DashboardEmbedError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "DashboardEmbedError";
  }
}

type QuickSightSettings = Config["dashboards"]["quicksight"] & { region: string };

/** The AWS SDK is loaded on first use: a deployment on native dashboards (the default) never loads it. */
let sdkLoading: Promise<typeof import("@aws-sdk/client-quicksight")> | undefined;
const quickSightSdk = () => (sdkLoading ??= import("@aws-sdk/client-quicksight"));

let sharedClient: QuickSightClient | undefined;
let sharedRegion: string | undefined;

async function clientFor(region: string): Promise<QuickSightClient> {
  const { QuickSightClient } = await quickSightSdk();
  if (!sharedClient || sharedRegion !== region) {
    sharedClient = new QuickSightClient({ region, maxAttempts: 3 });
    sharedRegion = region;
  }
  return sharedClient;
}

export function userArn(settings: { region: string; accountId: string; namespace: string }, email: string): string {
  return `arn:aws:quicksight:${settings.region}:${settings.accountId}:user/${settings.namespace}/${email}`;
}

export function buildEmbedRequest(
  settings: QuickSightSettings & { accountId: string },
  email: string,
  dashboardId: string,
): GenerateEmbedUrlForRegisteredUserCommandInput {
  return {
    AwsAccountId: settings.accountId,
    UserArn: userArn(settings, email),
    SessionLifetimeInMinutes: settings.sessionMinutes,
    AllowedDomains: settings.allowedDomains,
    ExperienceConfiguration: {
      Dashboard: {
        InitialDashboardId: dashboardId,
        // Reset and undo/redo are toolbar options of the embedding SDK (EMBED_TOOLBAR), not API features;
        // the API's state persistence keeps the user's filters across sessions, which renewal relies on.
        FeatureConfigurations: { StatePersistence: { Enabled: true } },
      },
    },
  };
}

/** A clean, user-facing message for an SDK failure; the raw error stays in the server log. */
export function describeEmbedError(error: unknown): DashboardEmbedError {
  const name = (error as { name?: string } | null)?.name ?? "";
  switch (name) {
    case "AccessDeniedException":
    case "UnsupportedUserEditionException":
    case "QuickSightUserNotFoundException":
    case "UnsupportedPricingPlanException":
      return new DashboardEmbedError(dashboardTexts.dashboardAccessDenied, name);
    case "ResourceNotFoundException":
      return new DashboardEmbedError(dashboardTexts.dashboardNotFound, name);
    case "ThrottlingException":
    case "LimitExceededException":
      return new DashboardEmbedError(dashboardTexts.dashboardThrottled, name);
    default:
      return new DashboardEmbedError(dashboardTexts.dashboardUnexpected, name || "Unknown");
  }
}

/** Calls GenerateEmbedUrlForRegisteredUser for the signed-in user and one dashboard. */
export async function generateEmbedAddress(
  email: string,
  dashboardId: string,
  options: { config?: Config; client?: QuickSightClient; now?: () => number } = {},
): Promise<EmbedAddress> {
  const config = options.config ?? getConfig();
  const { accountId } = config.dashboards.quicksight;
  if (!accountId) throw new DashboardEmbedError(dashboardTexts.dashboardNotConfigured, "NotConfigured");
  const settings = { ...config.dashboards.quicksight, accountId, region: config.awsRegion };
  const client = options.client ?? (await clientFor(settings.region));
  const now = options.now ?? (() => performance.now());
  // The session's lifetime starts when QuickSight answers at the latest; counting it from before the call
  // errs on the safe side by the call's duration.
  const startedAt = now();
  let embedUrl: string | undefined;
  try {
    const answer = await client.send(
      new (await quickSightSdk()).GenerateEmbedUrlForRegisteredUserCommand(
        buildEmbedRequest(settings, email, dashboardId),
      ),
    );
    embedUrl = answer.EmbedUrl;
  } catch (error) {
    const clean = describeEmbedError(error);
    console.warn(JSON.stringify({ level: "warn", msg: "quicksight embed failed", code: clean.code, dashboardId }));
    throw clean;
  }
  if (!embedUrl || !/^https:\/\//.test(embedUrl))
    throw new DashboardEmbedError(dashboardTexts.dashboardUnexpected, "NoEmbedUrl");
  return {
    embedUrl,
    expiresInMs: Math.max(0, settings.sessionMinutes * 60_000 - (now() - startedAt)),
    sessionMinutes: settings.sessionMinutes,
    toolbar: EMBED_TOOLBAR,
  };
}
