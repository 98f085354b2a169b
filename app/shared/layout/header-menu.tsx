import { Form, NavLink } from "@remix-run/react";
import { uiTexts } from "~/shared/ui/texts";
import type { NavigationProps } from "./navigation";

/** The header's user menu. Renders nothing while there are no entries (e.g. signed out). */
export function HeaderMenu({ menu }: NavigationProps) {
  if (menu.length === 0) return null;
  return (
    <nav className="header-menu" aria-label={uiTexts.userMenu}>
      <ul>
        {menu.map((item) => (
          <li key={item.to}>
            {item.kind === "logout" ? (
              <Form method="post" action={item.to} reloadDocument>
                <button type="submit" className="header-menu__logout">
                  {item.label}
                </button>
              </Form>
            ) : (
              <NavLink to={item.to} prefetch="intent">
                {item.label}
              </NavLink>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
