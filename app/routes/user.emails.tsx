// Screen: the demo's e-mails: /user/emails (the mail outbox, MAIL=outbox only; SYSTEM ADMIN).
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { getConfig } from "~/config.server";
import { loadOutbox } from "~/features/outbox/outbox.server";
import { OutboxScreen } from "~/features/outbox/outbox-screen";
import { outboxTexts } from "~/features/outbox/texts";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: outboxTexts.title }];

/**
 * `/user/emails`: the messages the portal kept instead of sending (MAIL=outbox), newest first, paged on the server
 * (`?page=&pageSize=`), narrowed to a recipient (`?para=`), one open (`?mensagem=<id>`, audited). With MAIL=smtp the
 * page does not exist (the access table's `mailOutbox` flag).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/user.emails", request);
  const screen = await loadOutbox(new URL(request.url), user, getConfig().origin);
  return data(screen, { status: screen.error ? 400 : 200, headers: { "Cache-Control": "private, no-store" } });
}

export default function OutboxPage() {
  const screen = useLoaderData<typeof loader>();
  const location = useLocation();
  return <OutboxScreen data={screen} search={location.search} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
