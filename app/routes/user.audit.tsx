// Screen: Audit trail: /user/audit (who did what, from where, on what, and the outcome).
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { AuditScreen } from "~/features/audit/audit-screen";
import { loadAuditScreen } from "~/features/audit/list.server";
import { SaveViewForm } from "~/features/saved-views/save-view-form";
import { redirectToDefaultView } from "~/features/saved-views/views.server";
import { auditTexts } from "~/messages";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: auditTexts.title }];

/**
 * `/user/audit` (SYSTEM ADMIN): the audit trail, newest first, 50 entries a page read by seek (`?antes=` / `?depois=`),
 * filtered by period, user, event type, dataset and outcome (`?de=&ate=&usuario=&evento=&base=&resultado=`), one entry
 * open in detail (`?entrada=`). Invalid parameters are ignored and said (400), never passed to the database.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/user.audit", request);
  await redirectToDefaultView(user, request);
  const screen = await loadAuditScreen(new URL(request.url));
  return data(screen, { status: screen.error ? 400 : 200, headers: { "Cache-Control": "private, no-store" } });
}

export default function AuditPage() {
  const screen = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <>
      <AuditScreen {...screen} search={location.search} />
      <SaveViewForm />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
