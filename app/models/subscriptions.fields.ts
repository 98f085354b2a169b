/**
 * The stored vocabulary of subscriptions, shared by the model and the browser: what a user may subscribe
 * to. `object` is a report origin for "report_origin", a business unit for "financial_statements" and a dashboard's
 * painelId for "dashboard".
 */
export const SUBSCRIPTION_KINDS = ["report_origin", "financial_statements", "dashboard"] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];
