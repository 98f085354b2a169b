/** The shape of the header menu and side navigation; app/access.ts produces it per user. */
export type NavLinkItem = { label: string; to: string };
/** A header entry; `logout` renders as a POST form button (signing out is never a GET side effect). */
export type MenuEntry = NavLinkItem & { kind?: "link" | "logout" };
export type NavGroup = { label: string; items: NavLinkItem[] };

export type NavigationProps = {
  /** Header (user) menu entries, e.g. user settings, logout. */
  menu: MenuEntry[];
  /** Side navigation groups with their items. */
  sideNav: NavGroup[];
};
