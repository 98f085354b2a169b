// Screen: API tokens: /user/tokens, the signed-in user's personal API tokens (SYSTEM ADMIN: everyone's with ?todos=1).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { scimBaseUrl } from "~/api/scim/base-url.server";
import { loadTokensPage, tokensAction } from "~/features/api-tokens/tokens.server";
import { TokensScreen } from "~/features/api-tokens/tokens-screen";
import { tokenTexts } from "~/messages";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: tokenTexts.title }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/user.tokens", request);
  return data(await loadTokensPage(user, new URL(request.url), scimBaseUrl()), {
    headers: { "Cache-Control": "no-store" },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/user.tokens", request);
  return tokensAction(user, request);
}

export default function UserTokens() {
  return <TokensScreen />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
