import { canAccessRoute, type RouteId } from "~/access";
import { accessContext } from "~/config.server";
import { reportsTexts as t } from "~/messages";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";

/**
 * The report area's pages the side menu does not list (spec 000 §2 names only the financial statement,
 * Relatorios and Explorer): the report list links to each one its reader may open (flags included), by the
 * same rules as the guards — the planning quantity report's filter and the cost-centre forecast review too.
 */
const PAGES: ReadonlyArray<{ route: RouteId; to: string; label: string }> = [
  { route: "routes/ij.report.reviews", to: "/ij/report/reviews", label: t.reviewsLink },
  { route: "routes/ij.report_save", to: "/ij/report_save", label: t.fpaLink },
  { route: "routes/ij.cockpit", to: "/ij/cockpit", label: t.cockpitLink },
  { route: "routes/ij.fiscal", to: "/ij/fiscal", label: t.fiscalLink },
  { route: "routes/ij.report_create", to: "/ij/report_create", label: t.quantityReportLink },
  { route: "routes/ij.report_create_schneider", to: "/ij/report_create_schneider", label: t.forecastReviewLink },
];

export function reportPagesFor(user: AuthenticatedUser): { to: string; label: string }[] {
  const context = accessContext();
  return PAGES.filter((p) => canAccessRoute(user.type, p.route, context)).map(({ to, label }) => ({ to, label }));
}
