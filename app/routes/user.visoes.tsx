// Screen: Saved views: /user/visoes, the signed-in user's saved views of the screens (and the "Salvar visão" posts).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { loadViewsPage, viewsAction } from "~/features/saved-views/views.server";
import { ViewsScreen } from "~/features/saved-views/views-screen";
import { savedViewTexts } from "~/messages";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: savedViewTexts.title }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/user.visoes", request);
  return data(await loadViewsPage(user, getConfig().origin), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/user.visoes", request);
  return viewsAction(user, request);
}

export default function UserViews() {
  return <ViewsScreen />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
