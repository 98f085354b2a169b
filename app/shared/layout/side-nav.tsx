import { Link, NavLink, useLocation } from "@remix-run/react";
import { uiTexts } from "~/shared/ui/texts";
import type { NavigationProps } from "./navigation";

/** The side navigation's element id: the phone layout's Menu button controls it (and, without JavaScript, targets it). */
export const SIDE_NAV_ID = "side-nav";

/**
 * The side navigation, grouped. Renders nothing while there are no groups. On a phone it is folded away behind
 * the header's Menu button (MenuToggle): `open` shows it; without JavaScript the button is a link to `#side-nav`
 * and CSS shows the targeted menu, with a link that folds it again.
 */
/** The item's own flow goes on past its page (a review opened from its filter): it stays marked there. */
const alsoActive = (item: { activeOn?: string[] }, pathname: string) =>
  item.activeOn?.some((prefix) => pathname.startsWith(prefix)) ?? false;

export function SideNav({ sideNav, open = false }: NavigationProps & { open?: boolean }) {
  const { pathname } = useLocation();
  const groups = sideNav.filter((g) => g.items.length > 0);
  if (groups.length === 0) return null;
  return (
    <nav id={SIDE_NAV_ID} className="side-nav" aria-label={uiTexts.mainNavigation} data-open={open || undefined}>
      {groups.map((group, i) => (
        // Each group is named by its label, so assistive technology announces "Data Journey" etc.
        <div key={group.label} className="side-nav__group" role="group" aria-labelledby={`side-nav-group-${i}`}>
          <p className="side-nav__label" id={`side-nav-group-${i}`}>
            {group.label}
          </p>
          <ul>
            {group.items.map((item) => (
              <li key={item.to}>
                {alsoActive(item, pathname) ? (
                  // NavLink marks only its own path; this item's flow goes on past it.
                  <Link to={item.to} prefetch="intent" className="is-active" aria-current="page">
                    {item.label}
                  </Link>
                ) : (
                  <NavLink
                    to={item.to}
                    prefetch="intent"
                    className={({ isActive }) => (isActive ? "is-active" : undefined)}
                  >
                    {item.label}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
      <a className="side-nav__fold" href="#main">
        {uiTexts.closeMenu}
      </a>
    </nav>
  );
}
