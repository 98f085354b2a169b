import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseConfig } from "~/config.server";
import { dashboardTexts } from "~/messages";
import { DashboardEmbedError, generateEmbedAddress } from "~/services/dashboards/quicksight.server";
import { useMockServer } from "../mocks";
import { type EmbedCall, quicksightEmbedError, quicksightEmbedSuccess } from "../mocks/quicksight";

const server = useMockServer();

const config = parseConfig({
  DASHBOARDS: "quicksight",
  AWS_REGION: "sa-east-1",
  QUICKSIGHT_ACCOUNT_ID: "123456789012",
  QUICKSIGHT_NAMESPACE: "journey",
  QUICKSIGHT_SESSION_MINUTES: "60",
  QUICKSIGHT_ALLOWED_DOMAINS: "https://portal.example.com",
});

const savedEnv = { ...process.env };
beforeAll(() => {
  // Fake credentials: the SDK signs the request, msw answers it; nothing leaves the process.
  process.env.AWS_ACCESS_KEY_ID = "AKIAFAKEFAKEFAKEFAKE";
  process.env.AWS_SECRET_ACCESS_KEY = "fake-secret-key-for-tests-only-000000000";
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterAll(() => {
  process.env = savedEnv;
});

async function failure(promise: Promise<unknown>): Promise<DashboardEmbedError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DashboardEmbedError);
    return error as DashboardEmbedError;
  }
  throw new Error("expected the embed call to fail");
}

describe("QuickSight GenerateEmbedUrlForRegisteredUser", () => {
  it("returns the embed URL for the user's ARN with the configured lifetime and domains", async () => {
    const calls: EmbedCall[] = [];
    server.use(quicksightEmbedSuccess(calls));
    // A monotonic clock that moves 1.5 s while QuickSight answers.
    const ticks = [10_000, 11_500];
    const address = await generateEmbedAddress("ana@example.com", "dash-123", {
      config,
      now: () => ticks.shift() ?? 11_500,
    });
    expect(address.embedUrl).toMatch(/^https:\/\/sa-east-1\.quicksight\.aws\.amazon\.com\/embed\/.+dash-123/);
    expect(address.sessionMinutes).toBe(60);
    // What is left of the hour when the answer leaves: the browser counts it from receipt, with its own clock.
    expect(address.expiresInMs).toBe(60 * 60_000 - 1_500);
    expect(address).not.toHaveProperty("sessionExpiresAt");
    expect(address.toolbar).toEqual({ resetDisabled: false, undoRedoDisabled: false });
    expect(calls).toHaveLength(1);
    expect(calls[0].region).toBe("sa-east-1");
    expect(calls[0].accountId).toBe("123456789012");
    expect(calls[0].body).toEqual({
      UserArn: "arn:aws:quicksight:sa-east-1:123456789012:user/journey/ana@example.com",
      SessionLifetimeInMinutes: 60,
      AllowedDomains: ["https://portal.example.com"],
      ExperienceConfiguration: {
        Dashboard: { InitialDashboardId: "dash-123", FeatureConfigurations: { StatePersistence: { Enabled: true } } },
      },
    });
  });

  it("turns AccessDeniedException (401) into a clean message", async () => {
    server.use(quicksightEmbedError("AccessDeniedException", 401));
    const error = await failure(generateEmbedAddress("ana@example.com", "dash-123", { config }));
    expect(error.code).toBe("AccessDeniedException");
    expect(error.message).toBe(dashboardTexts.dashboardAccessDenied);
  });

  it("turns ResourceNotFoundException (404) into a clean message", async () => {
    server.use(quicksightEmbedError("ResourceNotFoundException", 404));
    const error = await failure(generateEmbedAddress("ana@example.com", "missing", { config }));
    expect(error.code).toBe("ResourceNotFoundException");
    expect(error.message).toBe(dashboardTexts.dashboardNotFound);
  });

  it("retries ThrottlingException (429) and then reports it cleanly", async () => {
    const counter = { count: 0 };
    server.use(quicksightEmbedError("ThrottlingException", 429, counter));
    const error = await failure(generateEmbedAddress("ana@example.com", "dash-123", { config }));
    expect(counter.count).toBe(3);
    expect(error.code).toBe("ThrottlingException");
    expect(error.message).toBe(dashboardTexts.dashboardThrottled);
    expect(error.message).not.toMatch(/mock|amazon|coral/i);
  });

  it("succeeds when throttling clears before the retries run out", async () => {
    const counter = { count: 0 };
    const calls: EmbedCall[] = [];
    // The throttled handler comes first and answers once; the retry reaches the success handler.
    server.use(
      quicksightEmbedError("ThrottlingException", 429, counter, { once: true }),
      quicksightEmbedSuccess(calls),
    );
    const address = await generateEmbedAddress("ana@example.com", "dash-123", { config });
    expect(counter.count).toBe(1);
    expect(calls).toHaveLength(1);
    expect(address.embedUrl).toContain("dash-123");
  });

  it("needs a configured account", async () => {
    const unconfigured = parseConfig({ DASHBOARDS: "native" });
    const error = await failure(generateEmbedAddress("ana@example.com", "dash-123", { config: unconfigured }));
    expect(error.message).toBe(dashboardTexts.dashboardNotConfigured);
  });
});
