import { data } from "@remix-run/node";
import { z } from "zod";
import { getConfig } from "~/config.server";
import { listDashboards } from "~/models/dashboard-queries.server";
import { safePortalLink } from "~/models/notices.server";
import { SUBSCRIPTION_KINDS, type SubscriptionKind } from "~/models/subscriptions.fields";
import {
  addSubscription,
  isSubscribed,
  listSendsOf,
  listSubscriptions,
  removeSubscription,
} from "~/models/subscriptions.server";
import { redirectWithToast } from "~/shared/toast.server";
import { SUBSCRIPTIONS_PATH } from "./paths";
import { checkAccess } from "./rights.server";
import { subscriptionTexts as t } from "./texts";

/**
 * The server side of /user/subscriptions and of the subscribe forms of the report list, the statements page and a
 * dashboard (they post here with a hidden return path). Everything is the signed-in user's own: the e-mail comes from
 * the session, never from the form; subscribing needs the right to open the thing now (rights.server.ts).
 */

export type SubscriptionState = { kind: SubscriptionKind; object: string; subscribed: boolean };

/** What a subscribe form needs on a page: whether the user follows (kind, object) already. */
export async function subscriptionStateOf(
  email: string,
  kind: SubscriptionKind,
  object: string,
): Promise<SubscriptionState> {
  return { kind, object, subscribed: await isSubscribed(email, kind, object) };
}

export type SubscriptionItem = { kind: SubscriptionKind; object: string; label: string; link: string; since: string };
export type SendLogItem = {
  id: string;
  label: string;
  status: string;
  statusLabel: string;
  detail: string;
  at: string;
};

export type SubscriptionsPageData = { items: SubscriptionItem[]; sends: SendLogItem[] };

const originLabel = (origin: string) =>
  origin === "automatico" ? t.originAutomatico : origin === "manual" ? t.originManual : origin;

function describe(kind: SubscriptionKind, object: string, dashboards: Map<string, string>) {
  if (kind === "report_origin")
    return { label: t.whatReports(originLabel(object)), link: `/ij/report?${new URLSearchParams({ origin: object })}` };
  if (kind === "financial_statements")
    return {
      label: t.whatStatements(object),
      link: `/ij/demo_financial?${new URLSearchParams({ company: object })}`,
    };
  return { label: t.whatDashboard(dashboards.get(object) ?? object), link: `/ij/painel/${encodeURIComponent(object)}` };
}

export async function loadSubscriptionsPage(email: string): Promise<SubscriptionsPageData> {
  const [subscriptions, sends] = await Promise.all([listSubscriptions(email), listSendsOf(email)]);
  const needsDashboards = [...subscriptions, ...sends].some((s) => s.kind === "dashboard");
  const dashboards = new Map(
    needsDashboards
      ? (await listDashboards(getConfig().tenantId)).map((d) => [String(d.painelId), d.panelLabel] as const)
      : [],
  );
  return {
    items: subscriptions.map((s) => ({
      kind: s.kind,
      object: s.object,
      ...describe(s.kind, s.object, dashboards),
      since: s.created_at.toISOString(),
    })),
    sends: sends.map((s) => ({
      id: s._id.toHexString(),
      label: describe(s.kind, s.object, dashboards).label,
      status: s.status,
      statusLabel: t.status[s.status] ?? s.status,
      detail:
        s.status === "skipped"
          ? (t.skipReason[s.last_error ?? ""] ?? "")
          : s.status === "pending" && s.attempts > 0
            ? t.retrying
            : "",
      at: (s.finished_at ?? s.created_at).toISOString(),
    })),
  };
}

const actionSchema = z
  .object({
    intent: z.enum(["subscribe", "unsubscribe"]),
    kind: z.enum(SUBSCRIPTION_KINDS),
    object: z.string().trim().min(1).max(40),
    returnTo: z.string().max(2_000).optional(),
  })
  .strict();

export type SubscriptionActionData = { error: string };

/** One string per field, or null when a field is repeated or a file (a forged form). */
async function readFields(request: Request): Promise<Record<string, string> | null> {
  const formData = await request.formData().catch(() => null);
  if (!formData) return null;
  const fields: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value !== "string" || Object.hasOwn(fields, key)) return null;
    fields[key] = value;
  }
  return fields;
}

/**
 * Subscribe or unsubscribe, then back to the page the form was on (a portal path only) with a toast. Subscribing to
 * what the user may not open is refused (403, nothing stored); unsubscribing is always allowed.
 */
export async function subscriptionsAction(email: string, request: Request, now = new Date()) {
  const fields = await readFields(request);
  const parsed = fields ? actionSchema.safeParse(fields) : null;
  if (!parsed?.success) return data<SubscriptionActionData>({ error: t.invalidRequest }, { status: 400 });
  const input = parsed.data;
  const back = safePortalLink(input.returnTo) ?? SUBSCRIPTIONS_PATH;
  if (input.intent === "unsubscribe") {
    const removed = await removeSubscription(email, input.kind, input.object);
    return redirectWithToast(back, { description: removed ? t.unsubscribed : t.notSubscribed });
  }
  const access = await checkAccess(email, input.kind, input.object);
  if (!access.ok) return data<SubscriptionActionData>({ error: t.notAllowed }, { status: 403 });
  if (!(await addSubscription(email, input.kind, input.object, now)))
    return data<SubscriptionActionData>({ error: t.tooMany }, { status: 400 });
  return redirectWithToast(back, { description: t.subscribed });
}
