// Screen: Seasonality profiles: /ij/forecast_perfis_sazonalidade (named 12-month shapes, a base of "Distribuir total").
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Breadcrumb } from "~/features/forecast/breadcrumb";
import { FILTER_PATH } from "~/features/forecast/forecast-filter";
import { PROFILES_PATH } from "~/features/forecast/profiles/paths";
import { loadProfilesPage, type ProfilesPage, profilesAction } from "~/features/forecast/profiles/profiles.server";
import { ProfilesScreen } from "~/features/forecast/profiles/profiles-screen";
import { profileTexts } from "~/features/forecast/profiles/texts";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/shared/ui/data-table.css";
import "~/features/forecast/forecast.css";

export const meta: MetaFunction = () => [{ title: profileTexts.title }];

/**
 * The forecast reviewers and SYSTEM ADMIN keep the seasonality profiles that "Distribuir total" offers as a base:
 * `?editar=<id>` fills the form with one, `?excluir=<id>` asks to confirm its removal; the POST saves or removes
 * (features/forecast/profiles/profiles.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/ij.forecast_perfis_sazonalidade", request);
  return loadProfilesPage(new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_perfis_sazonalidade", request, "write");
  return profilesAction(request, user);
}

export default function SeasonalityProfilesPage() {
  const loaded = useLoaderData<typeof loader>() as ProfilesPage;
  const posted = useActionData<typeof action>() as ProfilesPage | undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <Breadcrumb filterHref={FILTER_PATH} current={profileTexts.title} />
      <ProfilesScreen path={PROFILES_PATH} page={posted ?? loaded} busy={busy} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
