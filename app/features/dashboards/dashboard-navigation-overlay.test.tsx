import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, UNSAFE_DataRouterStateContext as DataRouterStateContext } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { messages } from "~/messages";
import { DashboardNavigationOverlay, isDashboardNavigationPending } from "./dashboard-navigation-overlay";

/** A router with the app's URLs; the dashboard's loader (which fetches the embed address) waits for the test. */
function appRouter(initial: string) {
  let release: (() => void) | undefined;
  const slowLoader = () => new Promise<null>((resolve) => (release = () => resolve(null)));
  const router = createMemoryRouter(
    [
      {
        path: "/",
        children: [
          { path: "home" },
          { path: "ij/painel/:id" },
          { path: "jobs/executados" },
          { path: "jobs/dashboard/:id", loader: slowLoader },
          { path: "repo/master-data", loader: slowLoader },
        ],
      },
    ],
    { initialEntries: [initial] },
  );
  return { router, release: () => release?.() };
}

async function startNavigation(router: ReturnType<typeof createMemoryRouter>, to: string) {
  const loading = new Promise<void>((resolve) => {
    const stop = router.subscribe((state) => {
      if (state.navigation.state === "loading") {
        stop();
        resolve();
      }
    });
  });
  void router.navigate(to);
  await loading;
}

/** Renders the overlay with the router's current state, as useNavigation() reads it inside the app. */
const render = (router: ReturnType<typeof createMemoryRouter>) =>
  renderToStaticMarkup(
    <DataRouterStateContext.Provider value={router.state}>
      <DashboardNavigationOverlay />
    </DataRouterStateContext.Provider>,
  );

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe("loading overlay of the dashboards", () => {
  it("is an empty live region while nothing loads", () => {
    const { router } = appRouter("/home");
    cleanup = () => router.dispose();
    const html = render(router);
    expect(html).toContain('role="status"');
    expect(html).not.toContain(messages.dashboardLoading);
  });

  it("covers the page, with a Portuguese status, while a dashboard's loader runs, coming from another section", async () => {
    const { router, release } = appRouter("/ij/painel/1");
    cleanup = () => {
      release();
      router.dispose();
    };
    await startNavigation(router, "/jobs/dashboard/5");
    expect(render(router)).toBe(
      `<div role="status" aria-live="polite" class="route-loading-overlay" data-pending="true"><span class="route-loading-overlay__label">${messages.dashboardLoading}</span></div>`,
    );
    release();
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (state.navigation.state === "idle") {
          stop();
          resolve();
        }
      });
    });
    expect(router.state.location.pathname).toBe("/jobs/dashboard/5");
    expect(render(router)).not.toContain(messages.dashboardLoading);
  });

  it("does not cover other pages that load", async () => {
    const { router, release } = appRouter("/jobs/executados");
    cleanup = () => {
      release();
      router.dispose();
    };
    await startNavigation(router, "/repo/master-data");
    expect(render(router)).not.toContain(messages.dashboardLoading);
  });

  it("recognises only the dashboard page itself", () => {
    const at = (pathname: string, state = "loading") => isDashboardNavigationPending({ state, location: { pathname } });
    expect(at("/jobs/dashboard/7")).toBe(true);
    expect(at("/jobs/dashboard/7/")).toBe(true);
    expect(at("/jobs/dashboard/7", "submitting")).toBe(true);
    expect(at("/jobs/dashboard/7", "idle")).toBe(false);
    expect(at("/jobs/dashboard/7/embed-url")).toBe(false);
    expect(at("/jobs/executados")).toBe(false);
    expect(at("/ij/painel/7")).toBe(true);
    expect(at("/IJ/Painel/7")).toBe(true);
    expect(at("/ij/painel/7/embed-url")).toBe(false);
    expect(at("/ij/explorer")).toBe(false);
    expect(isDashboardNavigationPending({ state: "idle", location: undefined })).toBe(false);
  });
});
