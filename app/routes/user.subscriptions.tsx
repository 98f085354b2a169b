// Screen: The user's subscriptions: /user/subscriptions (what the user follows by e-mail).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { loadSubscriptionsPage, subscriptionsAction } from "~/features/subscriptions/pages.server";
import { subscriptionTexts as t } from "~/messages";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { formatDateTime } from "~/shared/dates";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: t.pageTitle }];

/**
 * /user/subscriptions: the signed-in user's own subscriptions (report origins, business units' statements, native
 * dashboards) with "Cancelar assinatura", and their latest sends (sent, queued, not sent and why). The subscribe
 * forms of the report list, the statements page and the dashboards post here and come back.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/user.subscriptions", request);
  return data(await loadSubscriptionsPage(user.email), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/user.subscriptions", request);
  return subscriptionsAction(user.email, request);
}

export default function UserSubscriptions() {
  const { items, sends } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <section aria-labelledby="subscriptions-title">
      <h1 id="subscriptions-title">{t.pageTitle}</h1>
      <p>{t.pageIntro}</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {items.length === 0 ? (
        <p>{t.empty}</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t.columnWhat}</th>
              <th scope="col">{t.columnSince}</th>
              <th scope="col">{t.columnActions}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={`${item.kind}:${item.object}`}>
                <td>
                  <Link to={item.link}>{item.label}</Link>
                </td>
                <td>{formatDateTime(item.since)}</td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="intent" value="unsubscribe" />
                    <input type="hidden" name="kind" value={item.kind} />
                    <input type="hidden" name="object" value={item.object} />
                    <button
                      type="submit"
                      className="button button--secondary button--small"
                      aria-label={`${t.unsubscribe}: ${item.label}`}
                    >
                      {t.unsubscribe}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>{t.logTitle}</h2>
      {sends.length === 0 ? (
        <p>{t.logEmpty}</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t.columnWhen}</th>
              <th scope="col">{t.columnWhat}</th>
              <th scope="col">{t.columnStatus}</th>
              <th scope="col">{t.columnDetail}</th>
            </tr>
          </thead>
          <tbody>
            {sends.map((send) => (
              <tr key={send.id}>
                <td>{formatDateTime(send.at)}</td>
                <td>{send.label}</td>
                <td>{send.statusLabel}</td>
                <td>{send.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
