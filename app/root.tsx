import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { DashboardNavigationOverlay } from "~/components/charts/dashboard-navigation-overlay";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { HeaderMenu } from "~/components/layout/header-menu";
import type { NavigationProps } from "~/components/layout/navigation";
import { SideNav } from "~/components/layout/side-nav";
import { useNonce } from "~/components/nonce";
import { Toaster } from "~/components/toaster";
import { getOptionalUser } from "~/auth.server";
import { getConfig } from "~/config.server";
import { loadNavigation } from "~/services/accounts.server";
import appStylesUrl from "~/styles/app.css?url";
import { getToast } from "~/utils/toast.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStylesUrl },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.brandText ?? "Portal" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const config = getConfig();
  const [{ toast, headers }, user] = await Promise.all([getToast(request), getOptionalUser(request)]);
  // The menu and side navigation come from app/access.ts for the signed-in user's current type.
  const navigation: NavigationProps = user ? await loadNavigation(user.type) : { menu: [], sideNav: [] };
  return data(
    { brandText: config.brandText, theme: config.theme, toast, navigation },
    headers ? { headers } : undefined,
  );
}

type ThemeColors = ReturnType<typeof getConfig>["theme"];

/** The tenant theme as CSS custom properties; app.css only ever reads these variables. */
function themeCss(theme: ThemeColors): string {
  // The values passed the CSS colour check of config.server.ts, so they cannot close the rule.
  return `:root{--color-primary:${theme.primary};--color-primary-contrast:${theme.primaryContrast};--color-accent:${theme.accent};--color-surface:${theme.surface};--color-text:${theme.text};}`;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Absent when the root loader itself failed; the page then uses the stylesheet's defaults.
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {root ? <style nonce={nonce} dangerouslySetInnerHTML={{ __html: themeCss(root.theme) }} /> : null}
      </head>
      <body>
        <div className="shell">
          <header className="shell__header">
            <a className="shell__brand" href="/">
              {root?.brandText ?? "Portal"}
            </a>
            <HeaderMenu {...(root?.navigation ?? { menu: [], sideNav: [] })} />
          </header>
          <div className="shell__body">
            <SideNav {...(root?.navigation ?? { menu: [], sideNav: [] })} />
            <main className="shell__main">{children}</main>
          </div>
        </div>
        <Toaster toast={root?.toast ?? null} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <>
      <Outlet />
      <DashboardNavigationOverlay />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
