import { Form, Link, useLocation } from "@remix-run/react";
import type { SubscriptionKind } from "~/models/subscriptions.fields";
import { SUBSCRIPTIONS_PATH } from "./paths";
import { subscriptionTexts as t } from "./texts";

/**
 * "Assinar" / "Cancelar assinatura" on the page of what can be followed: a plain form that posts to
 * /user/subscriptions with the page's own address to come back to, so it works without JavaScript.
 */
export function SubscribeForm({
  kind,
  object,
  subscribed,
  label,
}: {
  kind: SubscriptionKind;
  object: string;
  subscribed: boolean;
  /** What subscribing means here (the button's accessible name and title). */
  label: string;
}) {
  const location = useLocation();
  return (
    <Form method="post" action={SUBSCRIPTIONS_PATH} className="subscribe-form">
      <input type="hidden" name="intent" value={subscribed ? "unsubscribe" : "subscribe"} />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="object" value={object} />
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <button
        type="submit"
        className="button button--secondary button--small"
        title={subscribed ? t.subscribedHint : label}
        aria-label={subscribed ? `${t.unsubscribe}: ${label}` : label}
      >
        {subscribed ? t.unsubscribe : t.subscribe}
      </button>{" "}
      <Link to={SUBSCRIPTIONS_PATH}>{t.mySubscriptions}</Link>
    </Form>
  );
}
