import { NavLink } from "@remix-run/react";
import { messages } from "~/messages";
import type { NavigationProps } from "./navigation";

/** The side navigation, grouped. Renders nothing while there are no groups. */
export function SideNav({ sideNav }: NavigationProps) {
  const groups = sideNav.filter((g) => g.items.length > 0);
  if (groups.length === 0) return null;
  return (
    <nav className="side-nav" aria-label={messages.mainNavigation}>
      {groups.map((group, i) => (
        // Each group is named by its label, so assistive technology announces "Data Journey" etc.
        <div key={group.label} className="side-nav__group" role="group" aria-labelledby={`side-nav-group-${i}`}>
          <p className="side-nav__label" id={`side-nav-group-${i}`}>
            {group.label}
          </p>
          <ul>
            {group.items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} prefetch="intent" className={({ isActive }) => (isActive ? "is-active" : undefined)}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
