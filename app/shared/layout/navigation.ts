/** The shape of the header menu and side navigation; app/access.ts produces it per user. */
export type NavLinkItem = { label: string; to: string };
/** A header entry; `logout` renders as a POST form button (signing out is never a GET side effect). */
export type MenuEntry = NavLinkItem & { kind?: "link" | "logout" };
/** A side-navigation item; `activeOn`: path prefixes of its own flow where it is marked as current too. */
export type SideNavLinkItem = NavLinkItem & { activeOn?: string[] };
export type NavGroup = { label: string; items: SideNavLinkItem[] };

export type NavigationProps = {
  /** Header (user) menu entries, e.g. user settings, logout. */
  menu: MenuEntry[];
  /** Side navigation groups with their items. */
  sideNav: NavGroup[];
};
