import { Link } from "@remix-run/react";
import "./data-table.css";

export type TabLink = { id: string; label: string; to: string };

/**
 * Tabs as links: the chosen tab lives in the URL, so back/forward, reload and bookmarks keep it, and the
 * tabs work before the JavaScript loads. Marked up as navigation with aria-current on the chosen one.
 */
export function TabsNav({
  tabs,
  current,
  label,
  variant = "top",
}: {
  tabs: readonly TabLink[];
  current: string;
  label: string;
  variant?: "top" | "inner";
}) {
  return (
    <nav className={variant === "inner" ? "tabs-nav tabs-nav--inner" : "tabs-nav"} aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.id}>
            <Link to={tab.to} aria-current={tab.id === current ? "page" : undefined} preventScrollReset>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
