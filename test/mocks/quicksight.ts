import { HttpResponse, http } from "msw";

/**
 * QuickSight's REST-JSON GenerateEmbedUrlForRegisteredUser:
 * POST https://quicksight.{region}.amazonaws.com/accounts/{AwsAccountId}/embed-url/registered-user
 * answering { EmbedUrl, Status, RequestId }, errors as x-amzn-ErrorType + { Message }.
 */

export const QUICKSIGHT_EMBED_PATH =
  "https://quicksight.:region.amazonaws.com/accounts/:accountId/embed-url/registered-user";

export type EmbedCall = { region: string; accountId: string; body: Record<string, unknown> };

export function embedUrlFor(region: string, dashboardId: string, n = 1) {
  return `https://${region}.quicksight.aws.amazon.com/embed/session-${n}/dashboards/${dashboardId}?code=fake&identityprovider=quicksight`;
}

/** Answers every embed call with a fresh URL, recording the requests. */
export function quicksightEmbedSuccess(calls: EmbedCall[] = []) {
  return http.post(QUICKSIGHT_EMBED_PATH, async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    const region = String(params.region);
    calls.push({ region, accountId: String(params.accountId), body });
    const dashboardId = String(
      (body.ExperienceConfiguration as { Dashboard?: { InitialDashboardId?: string } })?.Dashboard
        ?.InitialDashboardId ?? "",
    );
    return HttpResponse.json({
      EmbedUrl: embedUrlFor(region, dashboardId, calls.length),
      Status: 200,
      RequestId: `req-${calls.length}`,
    });
  });
}

/** Answers with a QuickSight error of the given type and HTTP status. */
export function quicksightEmbedError(
  type: string,
  status: number,
  counter?: { count: number },
  options: { once?: boolean } = {},
) {
  return http.post(
    QUICKSIGHT_EMBED_PATH,
    () => {
      if (counter) counter.count += 1;
      return HttpResponse.json(
        { Message: `${type} raised by the mock`, RequestId: "req-error" },
        {
          status,
          headers: { "x-amzn-ErrorType": `${type}:http://internal.amazon.com/coral/com.amazonaws.quicksight/` },
        },
      );
    },
    { once: options.once ?? false },
  );
}

export const quicksightHandlers = [quicksightEmbedSuccess()];
