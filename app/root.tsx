import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from "@remix-run/react";
import { type ReactNode, useEffect, useState } from "react";
import { accessContext, getConfig } from "~/config.server";
import { DashboardNavigationOverlay } from "~/features/dashboards/dashboard-navigation-overlay";
import { NoticeHeaderLinks } from "~/features/notices/header-links";
import { buildNavigation } from "~/navigation";
import { getOptionalSignedInPage } from "~/platform/auth/auth.server";
import { forgetSignedInState } from "~/shared/browser-state";
import { setPortalTimeZone } from "~/shared/dates";
import { HeaderMenu } from "~/shared/layout/header-menu";
import { MenuToggle } from "~/shared/layout/menu-toggle";
import type { NavigationProps } from "~/shared/layout/navigation";
import { SideNav } from "~/shared/layout/side-nav";
import { dayLabel, parseIsoDate } from "~/shared/months";
import { getToast } from "~/shared/toast.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import { useNonce } from "~/shared/ui/nonce";
import { uiTexts } from "~/shared/ui/texts";
import { Toaster } from "~/shared/ui/toaster";
import appStylesUrl from "~/styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStylesUrl },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.ico", sizes: "48x48" },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.brandText ?? "Portal" }];

const NO_NAVIGATION: NavigationProps = { menu: [], sideNav: [] };

export async function loader({ request }: LoaderFunctionArgs) {
  const config = getConfig();
  const pinned = config.portalToday ? parseIsoDate(config.portalToday) : null;
  // The signed-in user comes with their unread notices (the header) and the tenant's dashboards, read with the session
  // in one command that the route's own guard shares. The menus follow app/access.ts for the user's current type.
  const [{ toast, headers }, signedIn] = await Promise.all([
    getToast(request),
    getOptionalSignedInPage(request).catch(unavailable),
  ]);
  const navigation: NavigationProps = signedIn
    ? buildNavigation(signedIn.user.type, signedIn.dashboards, accessContext())
    : NO_NAVIGATION;
  return data(
    {
      brandText: config.brandText,
      theme: config.theme,
      timeZone: config.timeZone,
      // The pinned "today" (PORTAL_TODAY) as the portal writes a day; null on the real clock.
      pinnedToday: pinned ? dayLabel(pinned) : null,
      toast,
      navigation,
      signedIn: !!signedIn,
      unreadNotices: signedIn?.unreadNotices ?? 0,
    },
    headers ? { headers } : undefined,
  );
}

/**
 * The shell never fails with the database: without it the page is drawn as signed out (brand, theme, no menus)
 * and the route's own loader answers with its error, shown inside the layout.
 */
function unavailable(error: unknown): null {
  console.warn(
    JSON.stringify({
      level: "warn",
      msg: "root: session or menu unavailable",
      error: error instanceof Error ? error.message : String(error),
    }),
  );
  return null;
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
  // Before any child renders: dates formatted in the browser use the server's zone, never the browser's.
  if (root) setPortalTimeZone(root.timeZone);
  const navigation = root?.navigation ?? NO_NAVIGATION;
  // The phone layout's folded side menu: opened by the header's Menu button, folded again on every navigation (it is
  // open only at the location it was opened at).
  const location = useLocation();
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === location.key;
  // Signed out (Logout, an expired session): what the last person kept in this browser goes.
  const signedOut = root ? !root.signedIn : false;
  useEffect(() => {
    if (signedOut) forgetSignedInState();
  }, [signedOut]);
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {root ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: tenant colours, each checked by config.server.ts
          <style nonce={nonce} dangerouslySetInnerHTML={{ __html: themeCss(root.theme) }} />
        ) : null}
      </head>
      <body>
        <a className="skip-link" href="#main">
          {uiTexts.skipToContent}
        </a>
        <div className="shell">
          <header className="shell__header">
            {navigation.sideNav.length > 0 ? (
              <MenuToggle open={menuOpen} onToggle={() => setMenuOpenAt(menuOpen ? null : location.key)} />
            ) : null}
            <a className="shell__brand" href="/">
              {root?.brandText ?? "Portal"}
            </a>
            <div className="shell__header-end">
              {root?.signedIn && navigation.menu.length > 0 ? <NoticeHeaderLinks unread={root.unreadNotices} /> : null}
              <HeaderMenu {...navigation} />
            </div>
          </header>
          <div className="shell__body">
            <SideNav {...navigation} open={menuOpen} />
            <main className="shell__main" id="main" tabIndex={-1}>
              {children}
              {root?.pinnedToday ? (
                <p className="shell__pinned-today" role="note">
                  {uiTexts.pinnedToday(root.pinnedToday)}
                </p>
              ) : null}
            </main>
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
